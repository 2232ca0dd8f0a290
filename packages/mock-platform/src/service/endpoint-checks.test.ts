import { VerificationRequestSchema } from '@questkit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO } from '../seed/demo-ids.js';
import { type EndpointCheck, WRONG_KEY } from './endpoint-checks.js';
import {
  apiQuest,
  closedPort,
  createQuest,
  createServicePlatform,
  message,
  type Received,
  type Reply,
  type ServicePlatform,
  startServer,
  type TestServer,
} from './service.testkit.js';

let endpoint: TestServer;
let nextReply: (request: Received) => Reply;
let mock: ServicePlatform;

beforeEach(async () => {
  // A careful endpoint: a wrong key gets its own answer, anything else "Unknown member".
  nextReply = (request) =>
    String(request.headers['x-api-key']).startsWith(WRONG_KEY)
      ? message(400, 'Wrong key.')
      : message(400, 'Unknown member');
  endpoint = await startServer((request) => nextReply(request));
  mock = createServicePlatform({ verificationTimeoutMs: 800 });
});

afterEach(async () => {
  await mock.platform.service.idle();
  await endpoint.close();
  expect(mock.errors).toEqual([]);
});

describe('automatic endpoint checks', () => {
  it('run when a quest with an API task is created, with a probe shaped like a claim', async () => {
    const key = 'probe-key-51a9d0c2';
    const { id: questId, taskIds } = await createQuest(
      mock,
      apiQuest({
        endpoint: `${endpoint.url}/verify`,
        apiKey: key,
        identifications: ['email', 'discord'],
      }),
    );
    await mock.platform.service.idle();
    // The probe, then the same probe with a wrong key, to compare the answers.
    expect(endpoint.received).toHaveLength(2);
    const probe = endpoint.received[0]!;
    expect(probe.headers['x-api-key']).toBe(key);
    expect(endpoint.received[1]!.headers['x-api-key']).not.toBe(key);
    expect(VerificationRequestSchema.strict().safeParse(probe.json).success).toBe(true);
    expect(probe.json).toMatchObject({
      communityId: DEMO.communityId,
      subdomain: 'demo',
      questId,
      accounts: {
        email: expect.any(String),
        discord: { id: expect.any(String), handle: expect.any(String) },
      },
    });

    const checks = await mock.call<EndpointCheck[]>(
      'GET',
      `/__mock/endpoint-checks?questId=${questId}`,
    );
    expect(checks.body).toEqual([
      expect.objectContaining({
        trigger: 'quest-created',
        endpoint: `${endpoint.url}/verify`,
        questId,
        taskId: taskIds[0],
        apiKeySent: true,
        state: 'done',
        passed: true,
        status: 400,
        message: 'Unknown member',
        violations: [],
        key: expect.objectContaining({ verdict: 'accepted' }),
      }),
    ]);
    expect(checks.text).not.toContain(key);
  });

  it('do not run for a quest without API task, nor when turned off', async () => {
    await createQuest(mock, {
      ...apiQuest({}),
      tasks: [{ type: 'partnership', settings: { subdomain: 'sandbox' } }],
    });
    const quiet = createServicePlatform({ endpointChecks: false });
    await createQuest(quiet, apiQuest({ endpoint: `${endpoint.url}/verify` }));
    await mock.platform.service.idle();
    await quiet.platform.service.idle();
    expect(endpoint.received).toHaveLength(0);
    expect((await mock.call('GET', '/__mock/endpoint-checks')).body).toEqual([]);
  });

  it.each<[string, () => Reply, string[]]>([
    ['a 500', () => message(500, 'boom'), ['status_code']],
    [
      'an HTML page',
      () => ({
        status: 400,
        body: '<!doctype html><p>no</p>',
        headers: { 'content-type': 'text/html' },
      }),
      ['message_format'],
    ],
    ['a hang past the limit', () => ({ hang: true }), ['response_time']],
  ])('on demand, report %s with the violated check', async (_name, reply, checks) => {
    nextReply = reply;
    const answer = await mock.call<EndpointCheck>('POST', '/__mock/endpoint-checks', {
      endpoint: `${endpoint.url}/verify`,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      trigger: 'manual',
      state: 'done',
      passed: false,
      apiKeySent: false,
    });
    expect(
      answer.body.violations.filter((v) => v.severity === 'error').map((v) => v.check),
    ).toEqual(checks);
    expect(endpoint.received[0]!.headers).not.toHaveProperty('x-api-key');
    const listed = await mock.call<EndpointCheck[]>('GET', '/__mock/endpoint-checks');
    expect(listed.body).toEqual([answer.body]);
  });

  it('on demand, pass a 200 with a message and report a refused connection', async () => {
    nextReply = (request) =>
      request.headers['x-api-key'] === 'k' ? message(200, 'ok') : message(400, 'Wrong key.');
    const passed = await mock.call<EndpointCheck>('POST', '/__mock/endpoint-checks', {
      endpoint: `${endpoint.url}/verify`,
      apiKey: 'k',
    });
    expect(passed.body).toMatchObject({
      passed: true,
      status: 200,
      apiKeySent: true,
      key: { verdict: 'accepted' },
    });
    const port = await closedPort();
    const refused = await mock.call<EndpointCheck>('POST', '/__mock/endpoint-checks', {
      endpoint: `http://127.0.0.1:${port}/verify`,
    });
    expect(refused.body).toMatchObject({ passed: false, status: null });
    expect(refused.body.error).toContain('ECONNREFUSED');
    const filtered = await mock.call<EndpointCheck[]>(
      'GET',
      `/__mock/endpoint-checks?endpoint=${encodeURIComponent(`${endpoint.url}/verify`)}`,
    );
    expect(filtered.body).toHaveLength(1);
    expect(
      (await mock.call('POST', '/__mock/endpoint-checks', { endpoint: 'ftp://x' })).status,
    ).toBe(400);
    expect((await mock.call('DELETE', '/__mock/endpoint-checks')).status).toBe(200);
    expect((await mock.call('GET', '/__mock/endpoint-checks')).body).toEqual([]);
  });

  it('fail an endpoint that refuses the task key, or checks none, though the platform checks pass', async () => {
    nextReply = (request) =>
      request.headers['x-api-key'] === 'the-endpoint-key'
        ? message(200, 'ok')
        : message(400, 'Bad key.');
    const refused = await mock.call<EndpointCheck>('POST', '/__mock/endpoint-checks', {
      endpoint: `${endpoint.url}/verify`,
      apiKey: 'a-wrong-task-key',
    });
    expect(refused.body.violations).toEqual([]);
    expect(refused.body).toMatchObject({ passed: false, status: 400, key: { verdict: 'refused' } });
    expect(refused.body.key?.message).toMatch(
      /answers the task's API key exactly as a wrong key \("Bad key\."\)/,
    );
    nextReply = () => message(200, 'ok');
    const unchecked = await mock.call<EndpointCheck>('POST', '/__mock/endpoint-checks', {
      endpoint: `${endpoint.url}/verify`,
      apiKey: 'k',
    });
    expect(unchecked.body).toMatchObject({ passed: false, key: { verdict: 'unchecked' } });
  });
});
