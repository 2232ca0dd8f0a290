import {
  type Invite,
  type InviteListItem,
  InviteListItemSchema,
  type ReviewCounts,
  ReviewCountsSchema,
  type User,
  type UserBySocial,
  UserBySocialSchema,
  UserSchema,
} from '@questkit/core/api';
import type { InviteRecord, UserRecord } from '../store/records.js';
import type { Store } from '../store/store.js';

// The two user shapes of the contract differ: the lookup by id has avatar, updatedAt and
// deletedAt and a nullable role; the lookup by social identifier has karma and a role never null.
// Core's schemas also accept karma and restoredAt, which only the contract's general description
// names: its by-id schema lists neither, its social one no restoredAt, so the answers leave them out.
const UserByIdAnswer = UserSchema.omit({ karma: true, restoredAt: true });
const UserBySocialAnswer = UserBySocialSchema.omit({ restoredAt: true });

function embeddedInvites(store: Store, userId: string): Invite[] {
  return store.invites.listByInviter(userId).map((invite) => ({
    ...invite,
    xp: store.users.get(invite.userId)?.xp ?? 0,
  }));
}

/** The answer of the lookup by user id. */
export function userById(store: Store, user: UserRecord): User {
  return UserByIdAnswer.parse({
    ...user,
    rank: store.users.getRank(user),
    invites: embeddedInvites(store, user.id),
  });
}

/**
 * The answer of the lookup by social identifier. `role` is never null in this shape: a member
 * without a role is shown as `guest`, the role a member has by default.
 */
export function userBySocial(store: Store, user: UserRecord): UserBySocial {
  return UserBySocialAnswer.parse({
    ...user,
    rank: store.users.getRank(user),
    role: user.role ?? 'guest',
    invites: embeddedInvites(store, user.id),
  });
}

/** An element of the invite list. */
export function inviteListItem(store: Store, invite: InviteRecord): InviteListItem {
  const invited = store.users.get(invite.userId);
  return InviteListItemSchema.parse({
    ...invite,
    xp: invited?.xp ?? 0,
    name: invited?.name ?? null,
  });
}

/** The answer of the review counts route. */
export function reviewCounts(user: UserRecord): ReviewCounts {
  return ReviewCountsSchema.parse(user);
}
