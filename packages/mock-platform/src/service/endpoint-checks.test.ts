import { WRONG_API_KEY } from '@questkit/conformance';
import { VerificationRequestSchema } from '@questkit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { DEMO } from '../seed/demo-ids.js';
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
} from '../service.testkit.js';
import type { EndpointCheck } from './endpoint-checks.js';

let endpoint: TestServer;
let nextReply: (request: Received) => Reply;
let mock: ServicePlatform;

beforeEach(async () => {
  // A careful endpoint: a wrong or missing key gets its own answer, anything else "Unknown member".
  nextReply = (request) =>
    request.headers['x-api-key'] === undefined ||
    String(request.headers['x-api-key']).startsWith(WRONG_API_KEY)
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
    // The claim shaped for the task, then the same claim with a drifted key: none, then a wrong one.
    expect(endpoint.received).toHaveLength(3);
    const probe = endpoint.received[0]!;
    expect(probe.headers['x-api-key']).toBe(key);
    expect(new Set(endpoint.received.slice(1).map((r) => r.headers['x-api-key']))).toEqual(
      new Set([undefined, WRONG_API_KEY]),
    );
    // Shaped as the platform shapes the task's claims: exactly its methods.
    expect(Object.keys(probe.json as object)).toContain('accounts');
    expect(Object.keys((probe.json as { accounts: object }).accounts).sort()).toEqual([
      'discord',
      'email',
    ]);
    expect(z.strictObject(VerificationRequestSchema.shape).safeParse(probe.json).success).toBe(
      true,
    );
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
        identifications: ['email', 'discord'],
        state: 'done',
        verdict: 'pass',
        passed: true,
        platform: { response_time: 'pass', message_format: 'pass', status_code: 'pass' },
        headline: null,
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
      verdict: 'fail',
      passed: false,
      apiKeySent: false,
      identifications: null,
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
    // No answer is never a pass: nothing was judged.
    expect(refused.body).toMatchObject({
      verdict: 'not_judged',
      passed: null,
      status: null,
      platform: {
        response_time: 'not_judged',
        message_format: 'not_judged',
        status_code: 'not_judged',
      },
    });
    expect(refused.body.error).toContain('ECONNREFUSED');
    expect(refused.body.headline).toMatch(
      /^No answer from http:\/\/127\.0\.0\.1:\d+\/verify: connection refused/,
    );
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

  it('judge no key from identical refusals, and fail an endpoint that checks none', async () => {
    nextReply = (request) =>
      request.headers['x-api-key'] === 'the-endpoint-key'
        ? message(200, 'ok')
        : message(400, 'Bad key.');
    const refused = await mock.call<EndpointCheck>('POST', '/__mock/endpoint-checks', {
      endpoint: `${endpoint.url}/verify`,
      apiKey: 'a-wrong-task-key',
    });
    expect(refused.body.violations).toEqual([]);
    // The task's key, a wrong key and no key all got the same 400: nothing tells them apart.
    expect(refused.body).toMatchObject({
      passed: true,
      status: 400,
      key: { verdict: 'not_judged' },
    });
    expect(refused.body.key?.message).toMatch(/--expect-pass/);
    nextReply = () => message(200, 'ok');
    const unchecked = await mock.call<EndpointCheck>('POST', '/__mock/endpoint-checks', {
      endpoint: `${endpoint.url}/verify`,
      apiKey: 'k',
    });
    expect(unchecked.body).toMatchObject({ passed: false, key: { verdict: 'unchecked' } });
  });

  it('fail an endpoint that answers 401 to a drifted key, as questkit check does', async () => {
    nextReply = (request) =>
      request.headers['x-api-key'] === 'k' ? message(400, 'Unknown member') : message(401, 'No.');
    const check = await mock.call<EndpointCheck>('POST', '/__mock/endpoint-checks', {
      endpoint: `${endpoint.url}/verify`,
      apiKey: 'k',
      identifications: ['svc-connect'],
    });
    expect(check.body).toMatchObject({
      verdict: 'fail',
      passed: false,
      platform: { status_code: 'fail' },
      identifications: ['svc-connect'],
    });
    const failed = check.body.calls.filter((call) => call.status === 'fail');
    expect(failed.map((call) => call.id).sort()).toEqual(['auth.missing-key', 'auth.wrong-key']);
    expect(failed[0]?.findings[0]?.message).toMatch(
      /^answered 401; only 200 and 400 are allowed\. The platform sends a claim with another key \(or none\) whenever the task's key and your endpoint's differ/,
    );
    expect(
      (
        await mock.call('POST', '/__mock/endpoint-checks', {
          endpoint: `${endpoint.url}/verify`,
          identifications: ['sms'],
        })
      ).status,
    ).toBe(400);
  });
});
