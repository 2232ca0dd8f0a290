// Type tests, checked by `tsc -p tsconfig.test.json` (the package's typecheck): every
// `@ts-expect-error` below must be an error, or the check fails.
import type { LeaderboardRecord, QuestListItem, User, Webhook, XpEntry } from '@questkit/core/api';
import type { createClient } from './index.js';
import type { ClientMethods } from './methods.js';
import type { OperationMethods } from './types.js';

declare const client: ReturnType<typeof createClient>;
type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assert = <T extends true>(_: T) => undefined;

export async function answers() {
  const user = await client.getUser({ userId: 'u' });
  assert<Equal<typeof user, User>>(true);
  const quests = await client.listQuests({ limit: 10, cursor: null });
  assert<Equal<typeof quests, QuestListItem[]>>(true);
  const hooks = await client.listWebhooks();
  assert<Equal<(typeof hooks)['items'][number], Webhook>>(true);
  const none = await client.deleteWebhook({ webhookId: 'w', confirmationToken: 't' });
  assert<Equal<typeof none, undefined>>(true);
  for await (const quest of client.paginate('listQuests', { maxItems: 5 })) {
    assert<Equal<typeof quest, QuestListItem>>(true);
  }
  // The leaderboard's items are in its `data` field.
  for await (const row of client.paginate('getLeaderboard', { limit: 100 })) {
    assert<Equal<typeof row, LeaderboardRecord>>(true);
  }
  const entry = await client.addXp({ userId: 'u', body: { xp: 1, label: 'l' } });
  assert<Equal<typeof entry, XpEntry>>(true);
  const banned = await client.banUser({ userId: 'u', body: {} });
  assert<Equal<typeof banned, undefined>>(true);
}

export async function inputs() {
  // @ts-expect-error a misspelt query parameter
  await client.listQuests({ limitt: 10 });
  // @ts-expect-error the path parameter is required
  await client.getUser({});
  // @ts-expect-error a body is required
  await client.createQuest({});
  // @ts-expect-error a required body field is missing
  await client.createWebhook({ body: { name: 'n', active: true } });
  // @ts-expect-error a header the operation does not read
  await client.getCommunity({ confirmationToken: 't' });
  // @ts-expect-error an unknown operation
  client.paginate('getUser', {});
  // @ts-expect-error the quest update takes no tasks
  await client.updateQuest({ questId: 'q', body: { tasks: [] } });
  await client.createWebhook({
    // @ts-expect-error a misspelt event type
    body: { name: 'n', uri: 'https://example.com/hook', active: true, events: ['QUEST_CLAIMD'] },
  });
  await client.updateWebhook({ webhookId: 'w', body: { events: ['QUEST_CLAIMED'] } });
  // Operations without inputs take nothing.
  await client.getCommunity();
  await client.listWebhookEventTypes();
  // Integers as numbers or digit strings.
  await client.listInvites({ userId: 'u', page: 1, page_size: '10' });
}

// The declared methods (one API reference entry each) are exactly the derived ones, per operation:
// same input, same optionality, same answer.
export type DeclaredMethodsMatch = {
  [K in keyof OperationMethods]: Equal<ClientMethods[K], OperationMethods[K]>;
};
assert<Equal<DeclaredMethodsMatch[keyof OperationMethods], true>>(true);
assert<Equal<keyof ClientMethods, keyof OperationMethods>>(true);
