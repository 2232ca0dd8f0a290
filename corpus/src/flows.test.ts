import { execFile } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type ConformanceReport, sampleEvent, type WebhookReport } from '@questkit/conformance';
import {
  createMockPlatform,
  DEMO,
  type MockServer,
  startMockServer,
} from '@questkit/mock-platform';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expressConnect } from './connect/express.js';
import { nodeHttpEndpoint } from './endpoints/node-http.js';
import { CONNECT_CORPUS, type ConnectTarget, WEBHOOK_CORPUS, type WebhookTarget } from './flows.js';
import { expressTopLevelReceiver } from './webhooks/express-top-level.js';
import { expressUserAgentReceiver } from './webhooks/express-user-agent.js';
import { type Credit, fastifyQuestSucceededReceiver } from './webhooks/fastify-quest-succeeded.js';
import { serverlessReceiver } from './webhooks/serverless.js';
import { tokenInUrlReceiver } from './webhooks/token-in-url.js';

// Both judges on every connect handler and webhook receiver of the corpus: `questkit check
// --connect-url` and `questkit check-webhook` (the built binary, as a user runs it), and the mock
// platform running the same flow for a member: the connect flow step by step as a browser takes
// it, and a member joining, which delivers JOINED_COMMUNITY. Same handler, same secret: the same
// verdict.

const KEY = 'corpus-flows-task-key-2b7e';
// The Next.js app (next-app.setup.ts) signs with the demo community's connect secret, the mock's.
const nextApp = inject('nextApp');
const SECRET = nextApp.connectSecret;
const CLI = fileURLToPath(new URL('../../packages/cli/dist/cli.js', import.meta.url));

const connectUrls = new Map<ConnectTarget, string>();
const webhookUrls = new Map<WebhookTarget, string>();
/** The webhook secret each in-process receiver checks, set once the mock has made the webhook. */
const receiverSecrets = new Map<WebhookTarget, string>();
const servers: Server[] = [];
/** What the receiver acting on QUEST_SUCCEEDED credited. */
const credits: Credit[] = [];
const URL_TOKEN = 'corpus-url-token-5d1e9a';
let verifyUrl = '';
let mock: MockServer | undefined;

async function listen(server: Server): Promise<string> {
  if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  verifyUrl = `${await listen(nodeHttpEndpoint(KEY).listen(0, '127.0.0.1'))}/verify`;
  let testLoginOrigin = '';
  testLoginOrigin = await listen(
    expressConnect({
      secret: () => SECRET,
      publicOrigin: () => testLoginOrigin,
      testMember: 'member-7',
    }),
  );
  connectUrls.set('express-connect-test-login', `${testLoginOrigin}/connect`);
  let loginOrigin = '';
  loginOrigin = await listen(
    expressConnect({ secret: () => SECRET, publicOrigin: () => loginOrigin }),
  );
  connectUrls.set('express-connect-login-page', `${loginOrigin}/connect`);
  let gateOrigin = '';
  gateOrigin = await listen(
    expressConnect({ secret: () => SECRET, publicOrigin: () => gateOrigin, loginGate: true }),
  );
  connectUrls.set('express-connect-login-gate', `${gateOrigin}/connect`);

  const secretOf = (target: WebhookTarget) => () => receiverSecrets.get(target) ?? '';
  webhookUrls.set(
    'express-webhook-top-level',
    `${await listen(expressTopLevelReceiver(secretOf('express-webhook-top-level')))}/webhooks`,
  );
  webhookUrls.set(
    'serverless-webhook',
    `${await listen(serverlessReceiver(secretOf('serverless-webhook')))}/api/webhook`,
  );
  webhookUrls.set(
    'express-webhook-user-agent',
    `${await listen(expressUserAgentReceiver(secretOf('express-webhook-user-agent')))}/webhooks`,
  );
  webhookUrls.set(
    'fastify-webhook-quest-succeeded',
    `${await listen(await fastifyQuestSucceededReceiver(secretOf('fastify-webhook-quest-succeeded'), credits))}/hooks/platform`,
  );
  webhookUrls.set(
    'webhook-token-in-url',
    `${await listen(tokenInUrlReceiver(URL_TOKEN))}/webhooks?token=${URL_TOKEN}`,
  );
  mock = await startMockServer(createMockPlatform({ rateLimit: false, endpointChecks: false }), {
    port: 0,
  });
  connectUrls.set('next-connect-json', `${nextApp.origin}/api/connect/json`);
  connectUrls.set('next-connect-extra-param', `${nextApp.origin}/api/connect/extra-param`);
  connectUrls.set('next-connect-host-rewrite', `${nextApp.origin}/api/connect/host-rewrite`);
  webhookUrls.set('next-webhook-hmac', `${nextApp.origin}/api/webhooks/hmac`);
});

afterAll(async () => {
  await mock?.close();
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

function questkit<T>(args: string[]): Promise<{ code: number; report: T }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [CLI, ...args, '--json'],
      { timeout: 120_000, env: { PATH: process.env.PATH ?? '' } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        try {
          resolve({ code, report: JSON.parse(stdout) as T });
        } catch {
          reject(new Error(`questkit ${args[0]} printed no JSON (exit ${code}): ${stderr}`));
        }
      },
    );
  });
}

/** A call of the mock's public API as the demo community's admin, or of a control route. */
async function mockCall<T>(method: string, path: string, body?: unknown): Promise<T> {
  const answer = await fetch(`${mock!.url}${path}`, {
    method,
    headers: {
      'x-api-key': DEMO.apiKeys.readWrite,
      'content-type': 'application/json',
      accept: 'application/json',
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await answer.text();
  expect(answer.status, `${method} ${path}: ${text}`).toBe(200);
  return (text === '' ? null : JSON.parse(text)) as T;
}

/**
 * The mock's connect flow for a member, as a browser takes it: start (the signed redirect), the
 * handler, and the callback when the handler sends the browser there.
 */
async function mockConnect(redirectUrl: string) {
  const quest = await mockCall<{ id: string }>('POST', '/public/communities/demo/quests', {
    categoryId: DEMO.modules.community,
    name: `Connect via ${new URL(redirectUrl).pathname}`,
    published: true,
    recurrence: 'once',
    conditionOperator: 'AND',
    tasks: [
      {
        type: 'api',
        settings: {
          endpoint: verifyUrl,
          apiKey: KEY,
          redirectUrl,
          identifications: ['svc-connect'],
        },
      },
    ],
  });
  const member = DEMO.users.guest;
  const started = await mockCall<{ location: string }>(
    'GET',
    `/__mock/connect/start?subdomain=demo&questId=${quest.id}&userId=${member}`,
  );
  const handler = await fetch(started.location, { redirect: 'manual' });
  await handler.arrayBuffer();
  const location = handler.headers.get('location');
  if (handler.status === 302 && location?.startsWith(`${mock!.url}/__mock/connect/callback`)) {
    const callback = await fetch(location, { headers: { accept: 'application/json' } });
    expect(callback.status, await callback.clone().text()).toBe(200);
  }
  const connections = await mockCall<Array<{ redirectUrl: string }>>(
    'GET',
    `/__mock/communities/demo/users/${member}/connections`,
  );
  return {
    handlerStatus: handler.status,
    linked: connections.some((connection) => connection.redirectUrl === redirectUrl),
  };
}

/** A webhook of the demo community at `uri`, alone: the others are switched off. Its secret. */
async function onlyWebhook(uri: string): Promise<{ id: string; secret: string }> {
  const { items } = await mockCall<{ items: Array<{ id: string; active: boolean; uri: string }> }>(
    'GET',
    '/public/communities/demo/webhooks?limit=100',
  );
  for (const webhook of items.filter((w) => w.active)) {
    await mockCall('PATCH', `/public/communities/demo/webhooks/${webhook.id}`, { active: false });
  }
  // The same receiver asked again: its webhook, switched back on.
  const existing = items.find((webhook) => webhook.uri === uri);
  if (existing) {
    await mockCall('PATCH', `/public/communities/demo/webhooks/${existing.id}`, { active: true });
  }
  const id =
    existing?.id ??
    (
      await mockCall<{ id: string }>('POST', '/public/communities/demo/webhooks', {
        name: `corpus ${new URL(uri).pathname}`,
        uri,
        active: true,
        events: await mockCall<string[]>('GET', '/public/communities/demo/webhooks-event-types'),
      })
    ).id;
  const after = await mockCall<{ items: Array<{ id: string; secret: string }> }>(
    'GET',
    '/public/communities/demo/webhooks?limit=100',
  );
  return { id, secret: after.items.find((webhook) => webhook.id === id)!.secret };
}

describe('the corpus of connect handlers: both judges give each its true verdict', () => {
  it.each(CONNECT_CORPUS.map((entry) => [entry.name, entry] as const))('%s', async (_, entry) => {
    const connectUrl = connectUrls.get(entry.target)!;
    const cli = await questkit<ConformanceReport>([
      'check',
      verifyUrl,
      '--api-key',
      KEY,
      '--only',
      'connect.',
      '--connect-url',
      connectUrl,
      '--secret',
      SECRET,
    ]);
    const status = (id: string) => cli.report.checks.find((check) => check.id === id)?.status;
    expect({
      exit: cli.code,
      verdict: cli.report.summary.verdict,
      signedRedirect: status('connect.signed-redirect'),
      callback: status('connect.callback'),
    }).toEqual({
      exit: entry.exit,
      verdict: entry.verdict,
      signedRedirect: entry.signedRedirect,
      callback: entry.callback,
    });
    const connect = cli.report.checks.filter((check) => check.group === 'connect');
    const said = connect.flatMap((check) => [
      ...check.findings.map((finding) => finding.message),
      ...(check.skipReason ? [check.skipReason] : []),
    ]);
    if (entry.sentence) expect(said).toContainEqual(expect.stringMatching(entry.sentence));
    else expect(connect.every((check) => check.status === 'pass')).toBe(true);

    const flow = await mockConnect(connectUrl);
    expect(flow).toEqual(entry.mock);
    // The judges agree: the callback passes exactly when the mock links the member.
    expect(status('connect.callback') === 'pass').toBe(flow.linked);
  });
});

describe('the corpus of webhook receivers: both judges give each its true verdict', () => {
  it.each(WEBHOOK_CORPUS.map((entry) => [entry.name, entry] as const))('%s', async (_, entry) => {
    const url = webhookUrls.get(entry.target)!;
    const webhook = await onlyWebhook(url);
    receiverSecrets.set(entry.target, webhook.secret);
    const creditsBefore = credits.length;
    const cli = await questkit<WebhookReport>(['check-webhook', url, '--secret', webhook.secret]);
    if (entry.acts) {
      // check-webhook's QUEST_SUCCEEDED made it act, once (the repeat is of another type).
      const succeeded = cli.report.checks.find(
        (check) => check.id === 'webhook.delivery.QUEST_SUCCEEDED',
      );
      expect(succeeded?.status).toBe('pass');
      expect(credits.slice(creditsBefore)).toEqual([
        { member: expect.stringContaining('@'), questId: expect.any(String), points: 100 },
      ]);
    }
    expect({ exit: cli.code, verdict: cli.report.summary.verdict }).toEqual({
      exit: entry.exit,
      verdict: entry.verdict,
    });
    const good = cli.report.checks.filter((check) => check.id !== 'webhook.wrong-secret');
    expect(new Set(good.map((check) => check.received?.status))).toEqual(
      new Set([entry.deliveryStatus]),
    );
    const said = [
      ...(cli.report.summary.headline ? [cli.report.summary.headline] : []),
      ...cli.report.checks.flatMap((check) => check.findings.map((finding) => finding.message)),
    ];
    if (entry.sentence) expect(said).toContainEqual(expect.stringMatching(entry.sentence));
    else expect(cli.report.checks.every((check) => check.status === 'pass')).toBe(true);

    const joined = await mockCall<{ deliveries: Array<{ id: string; webhookId: string }> }>(
      'POST',
      '/__mock/communities/demo/members',
      { name: `corpus-${entry.target}` },
    );
    const delivery = joined.deliveries.find((d) => d.webhookId === webhook.id)!;
    const detail = await mockCall<{
      status: string;
      attempts: Array<{ status: number | null; explanation: string | null }>;
    }>('GET', `/__mock/webhooks/deliveries/${delivery.id}`);
    const [attempt] = detail.attempts;
    expect({ status: detail.status, explained: attempt?.explanation != null }).toEqual(entry.mock);
    expect(attempt?.status).toBe(entry.deliveryStatus);
    // The judges agree on the deliveries (the mock never sends a wrong secret), in the same
    // words: the mock's explanation is in the CLI's finding.
    const delivered = good.every((check) => check.status === 'pass' || check.status === 'warn');
    expect(detail.status === 'success').toBe(delivered);
    if (attempt?.explanation) {
      expect(good[0]!.findings[0]!.message).toContain(attempt.explanation);
    }
  });
});

describe('receivers written against the real platform, met as the platform delivers', () => {
  const deliver = (url: string, body: unknown, userAgent: string) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': userAgent },
      body: JSON.stringify(body),
    });

  it('the User-Agent receiver refuses another User-Agent (403) and answers 500 to flat data', async () => {
    const url = webhookUrls.get('express-webhook-user-agent')!;
    const secret = 'corpus-direct-secret';
    receiverSecrets.set('express-webhook-user-agent', secret);
    const event = sampleEvent('JOINED_COMMUNITY', {
      communityId: 'c',
      subdomain: 'demo',
      userId: 'u',
      questId: 'q',
    });
    expect((await deliver(url, { ...event, secret }, 'Svc-Webhook')).status).toBe(200);
    expect((await deliver(url, { ...event, secret }, 'questkit-mock-platform')).status).toBe(403);
    const flat = { ...event, data: { userId: 'u', questId: 'q' }, secret };
    expect((await deliver(url, flat, 'Svc-Webhook')).status).toBe(500);
  });

  it("the QUEST_SUCCEEDED receiver acts on the mock's QUEST_SUCCEEDED delivery", async () => {
    const url = webhookUrls.get('fastify-webhook-quest-succeeded')!;
    const webhook = await onlyWebhook(url);
    receiverSecrets.set('fastify-webhook-quest-succeeded', webhook.secret);
    const before = credits.length;
    const fired = await mockCall<{
      event: { data: { user: { id: string; email: string | null }; quest: { id: string } } };
      deliveries: Array<{ webhookId: string; status: string }>;
    }>('POST', '/__mock/communities/demo/events', { type: 'QUEST_SUCCEEDED' });
    expect(fired.deliveries.find((d) => d.webhookId === webhook.id)?.status).toBe('success');
    const { user, quest } = fired.event.data;
    expect(credits.slice(before)).toEqual([
      { member: user.email ?? user.id, questId: quest.id, points: 100 },
    ]);
  });
});
