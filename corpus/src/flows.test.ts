import { execFile } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { ConformanceReport, WebhookReport } from '@questkit/conformance';
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
import { serverlessReceiver } from './webhooks/serverless.js';
import { urlTokenReceiver } from './webhooks/url-token.js';

// Both judges on every connect handler and webhook receiver of the corpus: `questkit check
// --connect-url` and `questkit check-webhook` (the built binary, as a user runs it), and the mock
// platform running the same flow for a member: the connect flow step by step as a browser takes
// it, and a member joining, which delivers JOINED_COMMUNITY. Same handler, same secret: the same
// verdict.

const KEY = 'corpus-flows-task-key-2b7e';
// The Next.js app (next-app.setup.ts) signs with the demo community's connect secret, the mock's.
const nextApp = inject('nextApp');
const SECRET = nextApp.connectSecret;
// The token the URL-token receiver expects in its own URL.
const URL_TOKEN = 'corpus-url-token-9c41';
const CLI = fileURLToPath(new URL('../../packages/cli/dist/cli.js', import.meta.url));

const connectUrls = new Map<ConnectTarget, string>();
const webhookUrls = new Map<WebhookTarget, string>();
/** The webhook secret each in-process receiver checks, set once the mock has made the webhook. */
const receiverSecrets = new Map<WebhookTarget, string>();
const servers: Server[] = [];
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
  webhookUrls.set(
    'express-webhook-url-token',
    `${await listen(urlTokenReceiver(URL_TOKEN))}/webhooks?token=${URL_TOKEN}`,
  );
  const secretOf = (target: WebhookTarget) => () => receiverSecrets.get(target) ?? '';
  webhookUrls.set(
    'express-webhook-top-level',
    `${await listen(expressTopLevelReceiver(secretOf('express-webhook-top-level')))}/webhooks`,
  );
  webhookUrls.set(
    'serverless-webhook',
    `${await listen(serverlessReceiver(secretOf('serverless-webhook')))}/api/webhook`,
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
  const { items } = await mockCall<{ items: Array<{ id: string; active: boolean }> }>(
    'GET',
    '/public/communities/demo/webhooks?limit=100',
  );
  for (const webhook of items.filter((w) => w.active)) {
    await mockCall('PATCH', `/public/communities/demo/webhooks/${webhook.id}`, { active: false });
  }
  const { id } = await mockCall<{ id: string }>('POST', '/public/communities/demo/webhooks', {
    name: `corpus ${new URL(uri).pathname}`,
    uri,
    active: true,
    events: ['JOINED_COMMUNITY', 'QUEST_CLAIMED', 'QUEST_CLAIM_FAILED'],
  });
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
    const cli = await questkit<WebhookReport>(['check-webhook', url, '--secret', webhook.secret]);
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
