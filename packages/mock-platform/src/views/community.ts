import type { Community, Module } from '@questkit/core/api';
import type { CommunityRecord, ModuleRecord } from '../store/records.js';
import type { Store } from '../store/store.js';

/** The answer of the community lookup; totalMembers counts members not deleted. */
export function communityView(store: Store, community: CommunityRecord): Community {
  return {
    name: community.name,
    subdomain: community.subdomain,
    id: community.id,
    image: community.image,
    description: community.description,
    sector: community.sector,
    blockchain: community.blockchain,
    type: community.type,
    totalMembers: store.users.countActive(community.id),
  };
}

/** An element of the module list. */
export function moduleView(module: ModuleRecord): Module {
  return {
    id: module.id,
    name: module.name,
    description: module.description,
    color: module.color,
    coverUrl: module.coverUrl,
    position: module.position,
  };
}
