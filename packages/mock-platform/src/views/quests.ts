import type { QuestListItem } from '@questkit/core/api';
import type { CommunityRecord, QuestRecord } from '../store/records.js';
import { MASKED_SECRET } from './webhooks.js';

/** The description a quest without one lists: the contract's list field is not nullable. */
export const EMPTY_DESCRIPTION = { type: 'doc', content: [] } as const;

/**
 * An element of the quest list; the tasks' API keys only for a caller that may write. Fields the
 * create answer leaves null get a value of their type: the list's are not nullable.
 */
export function questListItem(
  community: CommunityRecord,
  quest: QuestRecord,
  revealSecrets = true,
): QuestListItem {
  return {
    id: quest.id,
    name: quest.name,
    description: quest.description ?? { ...EMPTY_DESCRIPTION, content: [] },
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
    retryAfter: quest.retryAfter ?? 0,
    rewards: quest.rewards.map((reward) => ({ ...reward })),
    tasks: quest.tasks.map((task) => ({
      id: task.id,
      metadata: task.metadata,
      type: task.type,
      // A task key lets anyone forge claims straight to the community's endpoint.
      settings:
        revealSecrets || task.settings.apiKey === undefined
          ? task.settings
          : { ...task.settings, apiKey: MASKED_SECRET },
    })),
    claimLimit: quest.claimLimit,
    claimCounter: quest.claimCounter,
    communityImageUrl: community.image ?? '',
    communityName: community.name,
    subdomain: community.subdomain,
  };
}
