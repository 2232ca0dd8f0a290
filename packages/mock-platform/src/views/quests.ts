import type { QuestListItem } from '@questkit/core';
import type { CommunityRecord, QuestRecord } from '../store/records.js';

/** An element of the quest list. */
export function questListItem(community: CommunityRecord, quest: QuestRecord): QuestListItem {
  return {
    id: quest.id,
    name: quest.name,
    description: quest.description,
    deleted: quest.deleted,
    communityId: quest.communityId,
    categoryId: quest.categoryId,
    createdAt: quest.createdAt,
    updatedAt: quest.updatedAt,
    archived: quest.archived,
    autoValidate: quest.autoValidate,
    conditionOperator: quest.conditionOperator,
    conditions: quest.conditions.map((condition) => ({ ...condition })),
    published: quest.published,
    recurrence: quest.recurrence,
    retryAfter: quest.retryAfter,
    rewards: quest.rewards.map((reward) => ({ ...reward })),
    tasks: quest.tasks.map((task) => ({
      id: task.id,
      metadata: task.metadata,
      type: task.type,
      settings: task.settings,
    })),
    claimLimit: quest.claimLimit,
    claimCounter: quest.claimCounter,
    communityImageUrl: community.image,
    communityName: community.name,
    subdomain: community.subdomain,
  };
}
