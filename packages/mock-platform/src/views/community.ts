import { type Community, CommunitySchema, type Module, ModuleSchema } from '@questkit/core/api';
import type { CommunityRecord, ModuleRecord } from '../store/records.js';
import type { Store } from '../store/store.js';

/** The answer of the community lookup; totalMembers counts members not deleted. */
export function communityView(store: Store, community: CommunityRecord): Community {
  return CommunitySchema.parse({
    ...community,
    totalMembers: store.users.countActive(community.id),
  });
}

/** An element of the module list. */
export function moduleView(module: ModuleRecord): Module {
  return ModuleSchema.parse(module);
}
