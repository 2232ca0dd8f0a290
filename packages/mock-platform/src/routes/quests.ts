import type { QuestListReward, QuestReward } from '@questkit/core/api';
import { mayReadSecrets, principalLabel } from '../auth/principal.js';
import type { MockContext } from '../context.js';
import { invalid } from '../errors.js';
import { ok, okText } from '../http/result.js';
import { bindRoute } from '../http/route.js';
import { randomId } from '../ids.js';
import { QUEST_LIST_LIMIT_DEFAULT } from '../limits.js';
import type { QuestRecord } from '../store/records.js';
import { byTimeThenId, lowerBound } from '../store/sorted.js';
import { cachedJson } from '../views/answer-cache.js';
import { questCreateView, questListItem } from '../views/quests.js';

const questOrder = byTimeThenId<QuestRecord>((quest) => quest.createdAt);

// A page of 100 quests reads 100 refresh times; most are the same few strings (a refresh stamps
// every quest of the page with one time), so their parse is kept.
const parsedTimes = new Map<string, number>();
function parsedTime(iso: string): number {
  let ms = parsedTimes.get(iso);
  if (ms === undefined) {
    if (parsedTimes.size >= 1024) parsedTimes.clear();
    ms = Date.parse(iso);
    parsedTimes.set(iso, ms);
  }
  return ms;
}

/**
 * The quest's cached claimCounter, refreshed from the live count when older than the interval:
 * the contract says the counter is a cache refreshed at most every hour, not real time.
 */
export function refreshClaimCounter(
  quest: QuestRecord,
  context: MockContext,
  now: Date = context.clock.now(),
): QuestRecord {
  const refreshedAt = quest.claimCounterRefreshedAt;
  const stale =
    refreshedAt === null ||
    now.getTime() - parsedTime(refreshedAt) >= context.settings.claimCounterRefreshMs;
  if (!stale) return quest;
  const patch = { claimCounter: quest.claimCount, claimCounterRefreshedAt: now.toISOString() };
  context.store.quests.update(quest.id, patch);
  return context.store.quests.get(quest.id) ?? { ...quest, ...patch };
}

/** GET /quests?limit=&cursor=&moduleId= */
export const listQuests = bindRoute('listQuests', ({ query, community, principal }, context) => {
  const all = context.store.quests.listByCommunity(community.id);
  let start = 0;
  if (query.cursor) {
    const last = context.store.quests.get(query.cursor);
    if (!last || last.communityId !== community.id) {
      return invalid('query', 'cursor', 'is not the id of a quest of this community');
    }
    start = lowerBound(all, last, questOrder) + 1;
  }
  const limit = query.limit ?? QUEST_LIST_LIMIT_DEFAULT;
  const page: QuestRecord[] = [];
  for (let index = start; index < all.length && page.length < limit; index++) {
    const quest = all[index]!;
    if (query.moduleId === undefined || quest.categoryId === query.moduleId) page.push(quest);
  }
  const reveal = mayReadSecrets(principal);
  const now = context.clock.now();
  // A refresh is a write: the page's text is kept for the store as it is after the refreshes.
  const current = page.map((quest) => refreshClaimCounter(quest, context, now));
  const key = `quests ${community.id} ${start} ${limit} ${query.moduleId ?? ''} ${reveal}`;
  return okText(
    cachedJson(context.store, key, () =>
      JSON.stringify(current.map((quest) => questListItem(community, quest, reveal))),
    ),
  );
});

/**
 * The list form of a created reward. A value reward becomes `{type, operator '=', value}`; a method
 * reward (first come, first served...) is listed with its method type and its maximum.
 */
function listReward(reward: QuestReward): QuestListReward {
  const base = { operator: '=', chain: null, collection: null, contractAddress: null };
  return 'method' in reward
    ? { type: reward.method.type, value: String(reward.method.max), ...base }
    : { type: reward.type, value: String(reward.value), ...base };
}

/** POST /quests */
export const createQuest = bindRoute(
  'createQuest',
  ({ body, community, principal }, { store, clock, hooks }) => {
    const module = store.modules.get(body.categoryId);
    if (!module || module.communityId !== community.id) {
      return invalid(
        'body',
        'categoryId',
        `is not the id of a module of community ${community.subdomain}`,
      );
    }
    const now = clock.now().toISOString();
    const tasks = (body.tasks ?? []).map((task) => ({
      id: randomId(),
      type: task.type,
      metadata: null,
      settings: task.settings,
    }));
    const record: QuestRecord = {
      id: randomId(),
      communityId: community.id,
      categoryId: body.categoryId,
      name: body.name,
      description: body.description ?? null,
      deleted: false,
      archived: false,
      published: body.published,
      // An api task verifies itself by calling its endpoint; any other task needs a reviewer.
      autoValidate: tasks.length > 0 && tasks.every((task) => task.type === 'api'),
      conditionOperator: body.conditionOperator,
      conditions: body.conditions ?? [],
      recurrence: body.recurrence,
      retryAfter: body.retryAfter,
      rewards: (body.rewards ?? []).map(listReward),
      tasks,
      claimLimit: body.claimLimit,
      position: body.position ?? null,
      sprintId: body.sprintId ?? null,
      isAutomaticWhenEmpty: body.isAutomaticWhenEmpty,
      claimCount: 0,
      claimCounter: 0,
      claimCounterRefreshedAt: now,
      createdAt: now,
      updatedAt: now,
    };
    store.quests.put(record);
    // The platform checks a newly configured verification endpoint (service side).
    hooks?.questCreated?.(record, principalLabel(principal));
    return ok(questCreateView(record, body.rewards ?? []));
  },
);
