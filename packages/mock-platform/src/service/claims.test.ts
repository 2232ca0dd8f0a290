import { VerificationRequestSchema } from '@questkit/core';
import { PLATFORM_CHECKS, type PlatformCheck } from '@questkit/core/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { DEMO } from '../seed/demo-ids.js';
import {
  apiQuest,
  closedPort,
  createQuest,
  createServicePlatform,
  message,
  type Reply,
  type ServicePlatform,
  startServer,
  type TestServer,
} from '../service.testkit.js';
import type { ClaimResult } from './claim-result.js';
import type { CallRecord } from './recorded-calls.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ada = DEMO.users.admin;
const TIMEOUT_MS = 800;

let endpoint: TestServer;
let nextReply: (index: number) => Reply;
let mock: ServicePlatform;

beforeEach(async () => {
  nextReply = () => message(200, 'Well done!');
  endpoint = await startServer((_request, index) => nextReply(index));
  // Endpoint checks off: only claim calls reach the endpoint in these tests.
  // Short enough to keep the timeout tests quick, long enough for a loaded machine's loopback.
  mock = createServicePlatform({ endpointChecks: false, verificationTimeoutMs: TIMEOUT_MS });
});

afterEach(async () => {
  mock.platform.service.stop();
  await endpoint.close();
  expect(mock.errors).toEqual([]);
});

async function claim(questId: string, userId: string = ada) {
  return mock.call<ClaimResult>('POST', `/__mock/communities/demo/quests/${questId}/claims`, {
    userId,
  });
}

async function questWith(settings: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return (
    await createQuest(mock, apiQuest({ endpoint: `${endpoint.url}/verify`, ...settings }, extra))
  ).id;
}

describe('the verification body', () => {
  it('has exactly the five fields and no accounts when no method is configured', async () => {
    const questId = await questWith({});
    const answer = await claim(questId);
    expect(answer.status).toBe(200);
    expect(endpoint.received).toHaveLength(1);
    const sent = endpoint.received[0]!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/verify');
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.json).toEqual({
      userId: ada,
      communityId: DEMO.communityId,
      subdomain: 'demo',
      questId,
      requestId: answer.body.requestId,
    });
    expect(Object.keys(sent.json as object)).not.toContain('accounts');
    expect(answer.body.requestId).toMatch(UUID);
    expect(z.strictObject(VerificationRequestSchema.shape).safeParse(sent.json).success).toBe(true);
  });

  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['email', { identifications: ['email'] }, { email: 'ada@example.com' }],
    [
      'wallet on eth-mainnet: the connected wallet',
      { identifications: ['wallet'], network: 'eth-mainnet' },
      { wallet: '0x52908400098527886E0F7030069857D2E4169EE7' },
    ],
    [
      'wallet on polygon-mainnet: the address verified on polygon',
      { identifications: ['wallet'], network: 'polygon-mainnet' },
      { wallet: '0x8617E340B3D01FA5F11F306F4090FD50E238070D' },
    ],
    [
      'discord',
      { identifications: ['discord'] },
      { discord: { id: '80351110224678912', handle: 'ada.lovelace' } },
    ],
    [
      'twitter',
      { identifications: ['twitter'] },
      { twitter: { id: '1426853018373939201', username: 'ada_builds' } },
    ],
    [
      'svc-connect: the identifier stored by the connect flow',
      { identifications: ['svc-connect'], redirectUrl: DEMO.connectRedirectUrl },
      { 'svc-connect': 'community-user-ada' },
    ],
    [
      'every method at once',
      {
        identifications: ['svc-connect', 'twitter', 'discord', 'wallet', 'email'],
        network: 'eth-mainnet',
        redirectUrl: DEMO.connectRedirectUrl,
      },
      {
        email: 'ada@example.com',
        wallet: '0x52908400098527886E0F7030069857D2E4169EE7',
        discord: { id: '80351110224678912', handle: 'ada.lovelace' },
        twitter: { id: '1426853018373939201', username: 'ada_builds' },
        'svc-connect': 'community-user-ada',
      },
    ],
    [
      'twitter and email, listed in reverse',
      { identifications: ['twitter', 'email', 'email'] },
      { email: 'ada@example.com', twitter: { id: '1426853018373939201', username: 'ada_builds' } },
    ],
  ];

  it.each(cases)('accounts for %s', async (_name, settings, accounts) => {
    const questId = await questWith(settings);
    const answer = await claim(questId);
    expect(answer.body.status).toBe('success');
    const sent = endpoint.received[0]!.json as Record<string, unknown>;
    expect(sent).toEqual({
      userId: ada,
      communityId: DEMO.communityId,
      subdomain: 'demo',
      questId,
      requestId: answer.body.requestId,
      accounts,
    });
    // Canonical key order, whatever the task's order.
    expect(Object.keys(sent.accounts as object)).toEqual(Object.keys(accounts));
    expect(JSON.parse(answer.body.tasks[0]!.request!.body!)).toEqual(sent);
  });

  it('sends the wallet verified on the task network for a wallet-only member', async () => {
    const questId = await questWith({ identifications: ['wallet'], network: 'base-mainnet' });
    const answer = await claim(questId, DEMO.users.walletOnly);
    expect(answer.body.status).toBe('success');
    expect((endpoint.received[0]!.json as { accounts: unknown }).accounts).toEqual({
      wallet: '0x1db3439a222c519ab44bb1144fc28167b4fa6ee6',
    });
  });

  it('makes a fresh requestId for every claim', async () => {
    const questId = await questWith({});
    const first = await claim(questId);
    // The quest is daily: the next claim waits for the next day on the test clock.
    mock.clock.advance(86_400_000);
    const second = await claim(questId);
    expect(second.body.status).toBe('success');
    expect(first.body.requestId).not.toBe(second.body.requestId);
    expect(endpoint.received.map((r) => (r.json as { requestId: string }).requestId)).toEqual([
      first.body.requestId,
      second.body.requestId,
    ]);
  });
});

describe('accounts the member has not linked', () => {
  it.each([
    ['twitter', DEMO.users.editor, { identifications: ['twitter'] }, 'Twitter'],
    ['email', DEMO.users.reviewer, { identifications: ['email'] }, 'email'],
    ['discord', DEMO.users.reviewer, { identifications: ['discord'] }, 'Discord'],
    [
      'wallet',
      DEMO.users.editor,
      { identifications: ['wallet'], network: 'eth-mainnet' },
      'wallet on eth-mainnet',
    ],
    [
      'svc-connect',
      DEMO.users.editor,
      { identifications: ['svc-connect'], redirectUrl: 'https://partner.example/connect' },
      'partner.example',
    ],
  ])('fail a %s claim before any call, naming the account', async (method, userId, settings, words) => {
    const questId = await questWith(settings);
    const answer = await claim(questId, userId);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      status: 'failed',
      reason: 'account-not-linked',
      missingAccounts: [method],
      xpAwarded: 0,
    });
    expect(answer.body.message).toContain(words);
    expect(answer.body.tasks.map((t) => t.outcome)).toEqual(['skipped']);
    expect(endpoint.received).toHaveLength(0);
  });

  it('lists every missing account of every task in one message', async () => {
    const questId = await questWith({ identifications: ['email', 'twitter', 'discord'] });
    const answer = await claim(questId, DEMO.users.guest);
    expect(answer.body.missingAccounts).toEqual(['email', 'discord', 'twitter']);
    expect(answer.body.message).toBe(
      'To claim this quest, add an email address to your profile and link your Discord account and link your Twitter account.',
    );
    expect(endpoint.received).toHaveLength(0);
  });
});

describe('X-Api-Key', () => {
  it('is sent when the task has a key, and redacted in every answer', async () => {
    const key = 'task-key-7c1e2f09a8b34d56';
    const questId = await questWith({ apiKey: key });
    const answer = await claim(questId);
    expect(endpoint.received[0]!.headers['x-api-key']).toBe(key);
    expect(answer.body.tasks[0]!.request?.headers['x-api-key']).toBe('REDACTED');
    expect(answer.text).not.toContain(key);
    const calls = await mock.call('GET', '/__mock/calls');
    expect(calls.text).not.toContain(key);
  });

  it('is absent when the task has none', async () => {
    const questId = await questWith({});
    const answer = await claim(questId);
    expect(endpoint.received[0]!.headers).not.toHaveProperty('x-api-key');
    expect(answer.body.tasks[0]!.request?.headers).not.toHaveProperty('x-api-key');
  });
});

describe('answers of the endpoint', () => {
  it('200: claimed, xp awarded, claimCounter follows its hourly cache', async () => {
    const questId = await questWith({});
    const listCounter = async () => {
      const list = await mock.call<Array<{ id: string; claimCounter: number }>>(
        'GET',
        '/public/communities/demo/quests?limit=100',
      );
      return list.body.find((quest) => quest.id === questId)!.claimCounter;
    };
    expect(await listCounter()).toBe(0);
    const before = await mock.call<{ xp: number }>('GET', `/public/communities/demo/users/${ada}`);

    const answer = await claim(questId);
    expect(answer.body).toMatchObject({
      status: 'success',
      reason: 'claimed',
      message: 'Well done!',
      xpAwarded: 100,
      questId,
      userId: ada,
      subdomain: 'demo',
      communityId: DEMO.communityId,
    });
    expect(answer.body.tasks[0]).toMatchObject({
      outcome: 'verified',
      response: { status: 200, body: '{"message":"Well done!"}' },
      violations: [],
    });
    const after = await mock.call<{ xp: number }>('GET', `/public/communities/demo/users/${ada}`);
    expect(after.body.xp).toBe(before.body.xp + 100);

    // Cached: the list still shows the old count until the refresh interval has passed.
    expect(await listCounter()).toBe(0);
    const advanced = await mock.call('POST', '/__mock/clock/advance', { ms: 3_600_000 });
    expect(advanced.status).toBe(200);
    expect(await listCounter()).toBe(1);
  });

  it('400 with a message: not verified, the message and requestId as the member sees them', async () => {
    nextReply = () => message(400, 'Follow @questkit first');
    const questId = await questWith({});
    const answer = await claim(questId);
    expect(answer.body).toMatchObject({
      status: 'failed',
      reason: 'not-verified',
      message: 'Follow @questkit first',
      xpAwarded: 0,
    });
    expect(answer.body.requestId).toBe(
      (endpoint.received[0]!.json as { requestId: string }).requestId,
    );
    expect(answer.body.tasks[0]!.outcome).toBe('not-verified');
    expect(answer.body.tasks[0]!.violations).toEqual([]);
  });

  const faults: Array<[string, Reply, PlatformCheck[]]> = [
    ['status 500', message(500, 'boom'), ['status_code']],
    ['status 401', message(401, 'Invalid API key'), ['status_code']],
    [
      'an HTML body',
      {
        status: 400,
        body: '<html><body>Bad request</body></html>',
        headers: { 'content-type': 'text/html' },
      },
      ['message_format'],
    ],
    [
      'a missing message',
      { status: 400, body: '{"error":"nope"}', headers: { 'content-type': 'application/json' } },
      ['message_format'],
    ],
    [
      'an empty message on 200',
      { status: 200, body: '{"message":"  "}', headers: { 'content-type': 'application/json' } },
      ['message_format'],
    ],
    [
      'a redirect',
      { status: 302, headers: { location: '/elsewhere' } },
      ['status_code', 'message_format'],
    ],
    [
      'an answer slower than the limit',
      { ...message(200, 'late'), delayMs: 3_000 },
      ['response_time'],
    ],
    ['no answer at all', { hang: true }, ['response_time']],
  ];

  it.each(
    faults,
  )('%s is an endpoint fault naming the violated check', async (_name, reply, checks) => {
    nextReply = () => reply;
    const questId = await questWith({});
    const answer = await claim(questId);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'error', reason: 'endpoint-fault', xpAwarded: 0 });
    expect(answer.body.message).toMatch(/try again later/i);
    const task = answer.body.tasks[0]!;
    expect(task.outcome).toBe('fault');
    const errors = task.violations.filter((v) => v.severity === 'error').map((v) => v.check);
    expect(errors.sort()).toEqual([...checks].sort());
    for (const check of checks) expect(PLATFORM_CHECKS[check]).toBeTruthy();
  });

  it('connection refused fails the claim, and no platform check judges it', async () => {
    const port = await closedPort();
    const questId = (
      await createQuest(mock, apiQuest({ endpoint: `http://127.0.0.1:${port}/verify` }))
    ).id;
    const answer = await claim(questId);
    expect(answer.body.status).toBe('error');
    const task = answer.body.tasks[0]!;
    expect(task.response).toBeNull();
    expect(task.error).toContain('ECONNREFUSED');
    expect(task.violations).toEqual([]);
    expect(task.checks).toEqual({
      response_time: 'not_judged',
      message_format: 'not_judged',
      status_code: 'not_judged',
    });
  });

  it('a timeout records no response and says how long it waited', async () => {
    nextReply = () => ({ hang: true });
    const questId = await questWith({});
    const answer = await claim(questId);
    const task = answer.body.tasks[0]!;
    expect(task.response).toBeNull();
    expect(task.error).toBe(`no complete answer within ${TIMEOUT_MS} ms`);
    expect(task.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
  });
});

describe('several API tasks', () => {
  it('calls them in order with one requestId and stops at the first that does not pass', async () => {
    nextReply = (index) => (index === 0 ? message(200, 'one') : message(400, 'two is missing'));
    const body = apiQuest({ endpoint: `${endpoint.url}/one` });
    body.tasks = [
      { type: 'api', settings: { endpoint: `${endpoint.url}/one` } },
      { type: 'api', settings: { endpoint: `${endpoint.url}/two`, identifications: ['email'] } },
      { type: 'api', settings: { endpoint: `${endpoint.url}/three` } },
    ];
    const { id } = await createQuest(mock, body);
    const answer = await claim(id);
    expect(endpoint.received.map((r) => r.path)).toEqual(['/one', '/two']);
    const ids = endpoint.received.map((r) => (r.json as { requestId: string }).requestId);
    expect(new Set(ids)).toEqual(new Set([answer.body.requestId]));
    expect(answer.body.tasks.map((t) => t.outcome)).toEqual([
      'verified',
      'not-verified',
      'skipped',
    ]);
    expect(answer.body).toMatchObject({ status: 'failed', message: 'two is missing' });
  });
});

describe('refusals and lookups', () => {
  it('refuses banned and deleted members and unavailable quests without a call', async () => {
    const questId = await questWith({});
    const banned = await claim(questId, DEMO.users.banned);
    expect(banned.body).toMatchObject({ status: 'failed', reason: 'member-not-allowed' });
    const deleted = await claim(questId, DEMO.users.deleted);
    expect(deleted.body).toMatchObject({ status: 'failed', reason: 'member-not-allowed' });
    const draft = await questWith({}, { published: false });
    expect((await claim(draft)).body).toMatchObject({ reason: 'quest-unavailable' });
    expect(endpoint.received).toHaveLength(0);
  });

  it('refuses a claim past the claim limit', async () => {
    const questId = await questWith({}, { claimLimit: 1 });
    expect((await claim(questId)).body.status).toBe('success');
    expect((await claim(questId, DEMO.users.editor)).body).toMatchObject({
      status: 'failed',
      reason: 'claim-limit-reached',
    });
    expect(endpoint.received).toHaveLength(1);
  });

  it('counts at most claimLimit claims when claims race', async () => {
    nextReply = () => ({ ...message(200, 'ok'), delayMs: 50 });
    const questId = await questWith({}, { claimLimit: 1 });
    const answers = await Promise.all([claim(questId), claim(questId, DEMO.users.editor)]);
    expect(endpoint.received).toHaveLength(2);
    expect(answers.map((a) => a.body.reason).sort()).toEqual(['claim-limit-reached', 'claimed']);
    expect(mock.platform.store.quests.get(questId)!.claimCount).toBe(1);
  });

  it('answers 404 for an unknown community, quest or member, 400 without userId; a quest without API task waits for review', async () => {
    const questId = await questWith({});
    const post = (path: string, body: unknown) => mock.call('POST', path, body);
    expect(
      (await post(`/__mock/communities/nope/quests/${questId}/claims`, { userId: ada })).status,
    ).toBe(404);
    expect(
      (await post(`/__mock/communities/demo/quests/${DEMO.sandbox.quest}/claims`, { userId: ada }))
        .status,
    ).toBe(404);
    expect(
      (
        await post(`/__mock/communities/demo/quests/${questId}/claims`, {
          userId: DEMO.sandbox.users.admin,
        })
      ).status,
    ).toBe(404);
    // Without an api task a quest does not validate itself: its claim opens a review, no call.
    const bare = await createQuest(mock, apiQuest({}, { tasks: [] }));
    const noTask = await post(`/__mock/communities/demo/quests/${bare.id}/claims`, { userId: ada });
    expect(noTask.body).toMatchObject({ status: 'pending', reason: 'in-review' });
    const missing = await post(`/__mock/communities/demo/quests/${questId}/claims`, {});
    expect(missing.status).toBe(400);
    expect(missing.text).toContain('userId');
    expect(endpoint.received).toHaveLength(0);
  });
});

describe('the call journal', () => {
  it('keeps every call, filterable by quest, user and outcome', async () => {
    nextReply = (index) => (index === 1 ? message(500, 'down') : message(200, 'ok'));
    const first = await questWith({});
    const second = await questWith({ identifications: ['email'] });
    await claim(first);
    await claim(first, DEMO.users.editor);
    await claim(second, DEMO.users.editor);

    const all = await mock.call<CallRecord[]>('GET', '/__mock/calls');
    expect(all.body).toHaveLength(3);
    expect(all.body.map((c) => c.outcome)).toEqual(['verified', 'fault', 'verified']);
    const byQuest = await mock.call<CallRecord[]>('GET', `/__mock/calls?questId=${first}`);
    expect(byQuest.body).toHaveLength(2);
    const byUser = await mock.call<CallRecord[]>(
      'GET',
      `/__mock/calls?userId=${DEMO.users.editor}`,
    );
    expect(byUser.body.map((c) => c.questId)).toEqual([first, second]);
    const faults = await mock.call<CallRecord[]>('GET', '/__mock/calls?outcome=fault');
    expect(faults.body).toHaveLength(1);
    expect(faults.body[0]).toMatchObject({
      questId: first,
      userId: DEMO.users.editor,
      response: { status: 500 },
      violations: [{ check: 'status_code', severity: 'error' }],
    });
    expect((await mock.call('GET', '/__mock/calls?outcome=maybe')).status).toBe(400);
    expect((await mock.call('DELETE', '/__mock/calls')).status).toBe(200);
    expect((await mock.call<CallRecord[]>('GET', '/__mock/calls')).body).toEqual([]);
  });
});
