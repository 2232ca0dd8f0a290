// The staleness attack: the mock keeps the JSON texts of some answers (views/answer-cache.ts). Each
// test reads an answer (so it is kept), changes what it shows through one write path (control
// routes, claims, connect, deliveries, the public API, the store itself as seeding and fixtures
// write it), and reads again over real HTTP: the second answer must show the change.
import { buildConnectCallback } from '@questkit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../clock.js';
import { createMockPlatform, type MockPlatform } from '../platform.js';
import { DEMO } from '../seed/demo-ids.js';
import { type MockServer, startMockServer } from '../server.js';
import { apiQuest, message, startServer, type TestServer } from '../service.testkit.js';

let mock: MockServer;
let platform: MockPlatform;
let endpoint: TestServer;
let receiver: TestServer;

beforeAll(async () => {
  endpoint = await startServer(() => message(200, 'Well done!'));
  receiver = await startServer(() => ({ status: 200, body: 'ok' }));
  platform = createMockPlatform({
    clock: createManualClock('2025-06-01T12:00:00.000Z'),
    // Every quest list refreshes the claim counters: a counter shown must be the live count.
    claimCounterRefreshMs: 0,
    rateLimit: false,
    validateResponses: true,
  });
  mock = await startMockServer(platform, { port: 0 });
});

afterAll(async () => {
  await mock?.close();
  await endpoint?.close();
  await receiver?.close();
});

const base = `/public/communities/${DEMO.subdomain}`;

/** A decoded JSON answer, read field by field as the assertions need. */
// biome-ignore lint/suspicious/noExplicitAny: the answers' shapes are core's, checked by validateResponses.
type Json = any;

async function call(
  method: string,
  path: string,
  { body, key = DEMO.apiKeys.readWrite }: { body?: unknown; key?: string } = {},
): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${mock.url}${path}`, {
    method,
    headers: {
      'x-api-key': key,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : JSON.parse(text) };
}

const get = async (path: string, key?: string) => {
  const answer = await call('GET', path, { key });
  expect(answer.status, `GET ${path}`).toBe(200);
  return answer.body;
};

/** Every answer that shows members: by id, by identifier, the inviter's (invitee xp). */
const memberAnswers = async (userId: string, inviterId: string, email: string) => ({
  byId: await get(`${base}/users/${userId}`),
  bySocial: await get(`${base}/users?email=${encodeURIComponent(email)}`),
  inviter: await get(`${base}/users/${inviterId}`),
});

const questList = () => get(`${base}/quests?limit=100`);
const webhookList = (key?: string) => get(`${base}/webhooks?limit=100`, key);

describe('no answer is stale after a write', () => {
  it('a claim: the member, the inviter embedding its xp, the quest counter', async () => {
    const created = await call('POST', `${base}/quests`, {
      body: apiQuest({ endpoint: `${endpoint.url}/verify` }),
    });
    expect(created.status).toBe(200);
    const questId: string = created.body.id;
    const member = DEMO.users.pendingInvitee;
    const before = await get(`${base}/users/${member}`);
    const email: string = before.email;
    const seen = await memberAnswers(member, DEMO.users.admin, email);
    const listed = (await questList()).find((quest: { id: string }) => quest.id === questId);
    expect(listed.claimCounter).toBe(0);

    const claim = await call('POST', `/__mock/communities/demo/quests/${questId}/claims`, {
      body: { userId: member },
    });
    expect(claim.body.status).toBe('success');

    const now = await memberAnswers(member, DEMO.users.admin, email);
    expect(now.byId.xp).toBe(seen.byId.xp + 100);
    expect(now.bySocial.xp).toBe(seen.bySocial.xp + 100);
    const invitee = (answer: { invites: { userId: string; xp: number }[] }) =>
      answer.invites.find((invite) => invite.userId === member)!;
    expect(invitee(now.inviter).xp).toBe(invitee(seen.inviter).xp + 100);
    const relisted = (await questList()).find((quest: { id: string }) => quest.id === questId);
    expect(relisted.claimCounter).toBe(1);
  });

  it('a control route: a member who joins shows in the inviter’s invites', async () => {
    const inviter = await get(`${base}/users/${DEMO.users.editor}`);
    const joined = await call('POST', '/__mock/communities/demo/members', {
      body: { name: 'fresh', email: 'fresh@example.com', referrerId: DEMO.users.editor, xp: 5 },
    });
    expect(joined.status).toBe(200);
    const now = await get(`${base}/users/${DEMO.users.editor}`);
    expect(now.invites).toHaveLength(inviter.invites.length + 1);
    expect(now.invites.at(-1).userId).toBe(joined.body.user.id);
  });

  it('the connect flow and its removal through the public API', async () => {
    const connections = `/__mock/communities/demo/users/${DEMO.users.guest}/connections`;
    const quest = await call('POST', `${base}/quests`, {
      body: apiQuest({
        endpoint: `${endpoint.url}/verify`,
        identifications: ['svc-connect'],
        redirectUrl: 'https://partner.example/connect',
      }),
    });
    const before = await get(connections);
    const started = await call(
      'GET',
      `/__mock/connect/start?subdomain=demo&questId=${quest.body.id}&userId=${DEMO.users.guest}`,
    );
    const callback = new URL(started.body.location).searchParams.get('callback')!;
    const answered = new URL(await buildConnectCallback(callback, 'partner-7', DEMO.connectSecret));
    const connected = await call('GET', `/__mock/connect/callback${answered.search}`);
    expect(connected.body.connected).toBe(true);
    const after = await get(connections);
    expect(after).toHaveLength(before.length + 1);

    const removed = await call(
      'DELETE',
      `${base}/users/${DEMO.users.guest}/connect?redirectUrl=${encodeURIComponent('https://partner.example/connect')}`,
    );
    expect(removed.status).toBe(200);
    expect(await get(connections)).toHaveLength(before.length);
  });

  it('a delivery: the webhook’s counters; a read-only caller never gets a revealed secret', async () => {
    const created = await call('POST', `${base}/webhooks`, {
      body: {
        name: 'fresh',
        uri: `${receiver.url}/hook`,
        active: true,
        events: ['JOINED_COMMUNITY'],
      },
    });
    expect(created.status).toBe(200);
    const id: string = created.body.id;
    const find = (page: { items: { id: string }[] }) => page.items.find((w) => w.id === id) as Json;
    const revealed = find(await webhookList());
    expect(revealed.success).toBe(0);
    expect(find(await webhookList(DEMO.apiKeys.readOnly)).secret).toBe('********');

    const fired = await call('POST', '/__mock/communities/demo/events', {
      body: { type: 'JOINED_COMMUNITY' },
    });
    expect(fired.status).toBe(200);
    expect(find(await webhookList()).success).toBe(1);

    const patched = await call('PATCH', `${base}/webhooks/${id}`, {
      body: { name: 'renamed' },
    });
    expect(patched.status).toBe(200);
    expect(find(await webhookList()).name).toBe('renamed');
    expect(find(await webhookList(DEMO.apiKeys.readOnly)).name).toBe('renamed');
  });

  it('the store itself, as seeding and fixtures write it', async () => {
    const { store } = platform;
    const member = await get(`${base}/users/${DEMO.users.reviewer}`);
    const social = await get(`${base}/users?twitterId=${member.twitterId}`);
    const user = store.users.get(DEMO.users.reviewer)!;
    store.users.put({ ...user, name: 'seeded again', xp: user.xp + 7 });
    expect((await get(`${base}/users/${DEMO.users.reviewer}`)).name).toBe('seeded again');
    expect((await get(`${base}/users?twitterId=${member.twitterId}`)).xp).toBe(social.xp + 7);

    await questList();
    const community = store.communities.getBySubdomain(DEMO.subdomain)!;
    store.communities.put({ ...community, name: 'Renamed community' });
    expect((await questList())[0].communityName).toBe('Renamed community');

    const quest = store.quests.listByCommunity(community.id)[0]!;
    store.quests.update(quest.id, { name: 'renamed in the store' });
    expect((await questList())[0].name).toBe('renamed in the store');

    await webhookList();
    const webhook = store.webhooks.listByCommunity(community.id)[0]!;
    store.webhooks.update(webhook.id, { active: !webhook.active });
    expect((await webhookList()).items[0].active).toBe(!webhook.active);

    const inviter = await get(`${base}/users/${DEMO.users.walletOnly}`);
    store.invites.put({
      inviterId: DEMO.users.walletOnly,
      userId: DEMO.users.reviewer,
      status: 'active',
      communityId: DEMO.communityId,
      joinedAt: '2025-06-01T12:00:00.000Z',
      questId: null,
    });
    expect((await get(`${base}/users/${DEMO.users.walletOnly}`)).invites).toHaveLength(
      inviter.invites.length + 1,
    );
  });
});
