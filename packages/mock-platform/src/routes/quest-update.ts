import type { QuestCreateResponse } from '@questkit/core';
import { apiError, invalid } from '../errors.js';
import { ok } from '../http/result.js';
import { bindRoute } from '../http/route.js';
import type { QuestRecord } from '../store/records.js';

/**
 * A quest as creation answers it. The rewards are shown as value rewards (`{type, value}`) from
 * the quest's listed rewards: the store keeps the list form only.
 */
export function questCreateView(quest: QuestRecord): QuestCreateResponse {
  return {
    id: quest.id,
    name: quest.name,
    recurrence: quest.recurrence,
    description: quest.description,
    retryAfter: quest.retryAfter,
    archived: quest.archived,
    published: quest.published,
    communityId: quest.communityId,
    categoryId: quest.categoryId,
    conditionOperator: quest.conditionOperator,
    claimLimit: quest.claimLimit,
    isAutomaticWhenEmpty: quest.isAutomaticWhenEmpty,
    conditions: quest.conditions,
    rewards: quest.rewards
      .filter((reward) => Number.isFinite(Number(reward.value)))
      .map((reward) => ({ type: reward.type, value: Number(reward.value) })),
    tasks: quest.tasks.map(({ id, type, settings }) => ({ id, type, settings })),
  };
}

/** PATCH /quests/{questId}: the fields given change, the others stay. */
export const updateQuest = bindRoute(
  'updateQuest',
  ({ params, body, community }, { store, clock }) => {
    const quest = store.quests.get(params.questId);
    if (!quest || quest.communityId !== community.id || quest.deleted) {
      return apiError(404, `Quest ${params.questId} not found in community ${community.subdomain}`);
    }
    if (body.categoryId !== undefined) {
      const module = store.modules.get(body.categoryId);
      if (!module || module.communityId !== community.id) {
        return invalid(
          'body',
          'categoryId',
          `is not the id of a module of community ${community.subdomain}`,
        );
      }
    }
    if (body.sprintId) {
      const sprint = store.sprints.get(body.sprintId);
      if (!sprint || sprint.communityId !== community.id) {
        return invalid('body', 'sprintId', `is not a sprint of community ${community.subdomain}`);
      }
    }
    const patch: Partial<QuestRecord> = { updatedAt: clock.now().toISOString() };
    for (const [key, value] of Object.entries(body)) {
      if (value !== undefined) (patch as Record<string, unknown>)[key] = value;
    }
    store.quests.update(quest.id, patch);
    return ok(questCreateView(store.quests.get(quest.id)!));
  },
);
