// The leak attack: every answer is the contract's schema applied to a record, so a record field the
// contract does not name (a secret, an internal count, a field added to a record later) must never
// reach an answer. Each record below carries a planted field, and the secrets the store holds are
// searched for in the text of every answer built from records.
import { describe, expect, it } from 'vitest';
import { DEMO } from '../seed/demo-ids.js';
import { createTestPlatform } from '../testkit.js';

const PLANTED = 'planted-4f1d9c';

function plantedPlatform() {
  const test = createTestPlatform();
  const { store } = test.platform;
  const plant = <T extends object>(record: T) => ({ ...record, internal: `${PLANTED}-field` });
  for (const community of store.communities.list()) store.communities.put(plant(community));
  for (const module of store.modules.listByCommunity(DEMO.communityId))
    store.modules.put(plant(module));
  for (const id of [DEMO.users.admin, DEMO.users.pendingInvitee, DEMO.users.editor])
    store.users.put(plant(store.users.get(id)!));
  for (const invite of store.invites.listByInviter(DEMO.users.admin))
    store.invites.put(plant(invite));
  for (const quest of store.quests.listByCommunity(DEMO.communityId))
    store.quests.put({
      ...plant(quest),
      tasks: quest.tasks.map((task) => ({ ...plant(task), settings: task.settings })),
    });
  for (const webhook of store.webhooks.listByCommunity(DEMO.communityId))
    store.webhooks.update(webhook.id, plant({ name: webhook.name }));
  for (const record of store.deliveries.listByWebhook(DEMO.webhooks.joined))
    store.deliveries.put({ ...plant(record), payload: { ...record.payload, token: PLANTED } });
  for (const id of Object.values(DEMO.reviews)) store.reviews.put(plant(store.reviews.get(id)!));
  return test;
}

const ROUTES = [
  'demo',
  'demo/modules',
  `demo/users/${DEMO.users.admin}`,
  'demo/users?email=ada%40example.com',
  `demo/users/${DEMO.users.admin}/invites?page=1`,
  `demo/reviews/users/${DEMO.users.editor}`,
  'demo/quests',
  'demo/webhooks',
  `demo/webhooks/${DEMO.webhooks.joined}/events`,
  'demo/reviews',
  `demo/reviews/${DEMO.reviews.starred}`,
  `demo/reviews/${DEMO.reviews.starred}/events`,
];

describe('answers built from records leak no field the contract does not name', () => {
  it.each(ROUTES)('GET %s (read-write key)', async (route) => {
    const { call } = plantedPlatform();
    const answer = await call('GET', route);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.text).not.toContain(PLANTED);
    expect(answer.text).not.toContain(DEMO.connectSecret);
    expect(answer.text).not.toContain(DEMO.apiKeys.readWrite);
    expect(answer.text).not.toContain(DEMO.apiKeys.readOnly);
  });

  it.each(
    ROUTES.filter((route) => !route.includes('/reviews')),
  )('GET %s (read-only key): no webhook secret, no task key', async (route) => {
    const { call } = plantedPlatform();
    const answer = await call('GET', route, { key: DEMO.apiKeys.readOnly });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.text).not.toContain(PLANTED);
    expect(answer.text).not.toContain('whsec_');
    expect(answer.text).not.toContain(DEMO.taskApiKey);
  });

  it('shows the webhook secret and the task key to a read-write caller (the masks are not blanket)', async () => {
    const { call } = plantedPlatform();
    expect((await call('GET', 'demo/webhooks')).text).toContain('whsec_demo_joined');
    expect((await call('GET', 'demo/quests')).text).toContain(DEMO.taskApiKey);
  });
});
