import {
  type QuestCreateResponse,
  QuestCreateResponseSchema,
  type QuestListItem,
  QuestListItemSchema,
  type QuestReward,
} from '@questkit/core/api';
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
  return QuestListItemSchema.parse({
    ...quest,
    description: quest.description ?? { ...EMPTY_DESCRIPTION, content: [] },
    retryAfter: quest.retryAfter ?? 0,
    tasks: quest.tasks.map((task) => ({
      ...task,
      // A task key lets anyone forge claims straight to the community's endpoint.
      settings:
        revealSecrets || task.settings.apiKey === undefined
          ? task.settings
          : { ...task.settings, apiKey: MASKED_SECRET },
    })),
    communityImageUrl: community.image ?? '',
    communityName: community.name,
    subdomain: community.subdomain,
  });
}

/**
 * A quest as creation and update answer it. Creation shows the rewards as they were created;
 * otherwise the quest's listed rewards are shown as value rewards (`{type, value}`): the store
 * keeps the list form only.
 */
export function questCreateView(
  quest: QuestRecord,
  rewards?: readonly QuestReward[],
): QuestCreateResponse {
  return QuestCreateResponseSchema.parse({
    ...quest,
    rewards:
      rewards ??
      quest.rewards
        .filter((reward) => Number.isFinite(Number(reward.value)))
        .map((reward) => ({ type: reward.type, value: Number(reward.value) })),
  });
}
