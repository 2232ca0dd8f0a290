import { apiError } from './errors.js';
import type { CommunityRecord } from './store/records.js';
import type { Store } from './store/store.js';

// Finding a member is shared by the public routes, the service and the control routes: it stays
// below all three.

/** The member of the community with this id, deleted or not; undefined when not a member. */
export function findMember(store: Store, community: CommunityRecord, userId: string) {
  const user = store.users.get(userId);
  return user && user.communityId === community.id ? user : undefined;
}

/** The 404 of a member that is not in the community. */
export const memberNotFound = (userId: string, community: CommunityRecord) =>
  apiError(404, `User ${userId} not found in community ${community.subdomain}`);
