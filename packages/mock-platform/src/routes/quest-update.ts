import { apiError, invalid } from '../errors.js';
import { ok } from '../http/result.js';
import { bindRoute } from '../http/route.js';
import type { QuestRecord } from '../store/records.js';
import { questCreateView } from '../views/quests.js';

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
