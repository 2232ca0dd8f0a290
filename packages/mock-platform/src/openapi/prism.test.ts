// The mock's OpenAPI document, read by an independent tool: Prism's validating proxy sits on
// loopback in front of the mock, and a set of real calls goes through it. Prism checks each
// request and each answer against the document and reports what disagrees in `sl-violations`.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../clock.js';
import { createMockPlatform } from '../platform.js';
import { PUBLIC_PREFIX, PUBLIC_ROUTES } from '../routes/index.js';
import { DEMO } from '../seed/demo-ids.js';
import { type MockServer, startMockServer } from '../server.js';
import { REQUEST_EXAMPLES } from './examples.js';

const PRISM = fileURLToPath(new URL('../../node_modules/.bin/prism', import.meta.url));
const RW = DEMO.apiKeys.readWrite;
const RO = DEMO.apiKeys.readOnly;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let dir: string;
let mock: MockServer;
let prism: ChildProcess;
let prismUrl = '';
let prismOutput = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'questkit-prism-'));
  mock = await startMockServer(
    createMockPlatform({
      clock: createManualClock('2025-06-01T12:00:00.000Z'),
      rateLimit: false,
      endpointChecks: false,
      validateResponses: true,
    }),
    { port: 0 },
  );
  const document = await (await fetch(`${mock.url}/openapi.json`)).json();
  const file = join(dir, 'openapi.json');
  await writeFile(file, JSON.stringify(document));
  const port = await freePort();
  prismUrl = `http://127.0.0.1:${port}`;
  prism = spawn(PRISM, ['proxy', file, mock.url, '--host', '127.0.0.1', '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Prism did not listen within 60 s:\n${prismOutput}`)),
      60_000,
    );
    const collect = (chunk: Buffer) => {
      prismOutput += chunk.toString('utf8');
      if (prismOutput.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    prism.stdout?.on('data', collect);
    prism.stderr?.on('data', collect);
    prism.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited with ${code}:\n${prismOutput}`));
    });
  });
}, 90_000);

afterAll(async () => {
  if (prism && prism.exitCode === null) {
    const exited = new Promise((resolve) => prism.once('exit', resolve));
    prism.kill('SIGTERM');
    await exited;
  }
  await mock?.close();
  await rm(dir, { recursive: true, force: true });
});

interface Call {
  label: string;
  method: string;
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  key?: string | null;
  /** The status the mock must answer. */
  status: number;
  /** A request the document itself refuses: only the answer must agree with the document. */
  invalidRequest?: boolean;
}

/** Every operation's documented example, then the answers a client meets most: errors and pages. */
function calls(): Call[] {
  const examples: Call[] = PUBLIC_ROUTES.map((route) => {
    const example = REQUEST_EXAMPLES[route.operationId] ?? {};
    const path = `${PUBLIC_PREFIX}${route.path}`.replace(/\{(\w+)\}/g, (_, name: string) =>
      name === 'subdomain' ? DEMO.subdomain : (example.params?.[name] ?? ''),
    );
    return {
      label: route.operationId,
      method: route.method.toUpperCase(),
      path,
      ...(example.query ? { query: example.query } : {}),
      ...(example.body !== undefined ? { body: example.body } : {}),
      status: route.status ?? 200,
    };
  });
  // Writes that change the demo data go last, the delete at the very end.
  const order = (call: Call) => (call.method === 'DELETE' ? 2 : call.method === 'GET' ? 0 : 1);
  examples.sort((a, b) => order(a) - order(b));
  const demo = `/public/communities/${DEMO.subdomain}`;
  const errors: Call[] = [
    {
      label: 'first page of quests, empty cursor',
      method: 'GET',
      path: `${demo}/quests`,
      query: { cursor: '' },
      status: 200,
    },
    {
      label: 'first page of quests, cursor=null',
      method: 'GET',
      path: `${demo}/quests`,
      query: { cursor: 'null' },
      status: 200,
    },
    {
      label: 'first page of webhooks, cursor=null',
      method: 'GET',
      path: `${demo}/webhooks`,
      query: { cursor: 'null', limit: '1' },
      status: 200,
    },
    {
      label: 'quests of a module',
      method: 'GET',
      path: `${demo}/quests`,
      query: { moduleId: DEMO.modules.onboarding, limit: '2' },
      status: 200,
    },
    { label: 'a read-only key reading', method: 'GET', path: demo, key: RO, status: 200 },
    {
      label: 'a sprint leaderboard',
      method: 'GET',
      path: `${demo}/leaderboard`,
      query: { page: '1', limit: '2', sprintId: DEMO.sprints.current },
      status: 200,
    },
    {
      label: 'every sprint',
      method: 'GET',
      path: `${demo}/leaderboard/sprint`,
      status: 200,
    },
    {
      label: 'a non-member',
      method: 'POST',
      path: `${demo}/member`,
      body: { userId: '00000000-0000-4000-8000-0000000000ff' },
      status: 404,
    },
    {
      label: 'xp below 0',
      method: 'DELETE',
      path: `${demo}/users/${DEMO.users.reviewer}/xp`,
      body: { xp: 2_147_483_647, label: 'Too much' },
      status: 409,
    },
    {
      label: 'a leaderboard page too large',
      method: 'GET',
      path: `${demo}/leaderboard`,
      query: { page: '1', limit: '101' },
      status: 400,
      invalidRequest: true,
    },
    {
      label: 'an unknown user',
      method: 'GET',
      path: `${demo}/users/00000000-0000-4000-8000-0000000000ff`,
      status: 404,
    },
    {
      label: 'a lookup that matches nobody',
      method: 'GET',
      path: `${demo}/users`,
      query: { email: 'nobody@example.com' },
      status: 404,
    },
    {
      label: 'an unknown community',
      method: 'GET',
      path: '/public/communities/nowhere',
      status: 404,
    },
    {
      label: 'a read-only key writing',
      method: 'POST',
      path: `${demo}/webhooks`,
      key: RO,
      body: REQUEST_EXAMPLES.createWebhook?.body,
      status: 403,
    },
    {
      label: 'a used webhook uri',
      method: 'POST',
      path: `${demo}/webhooks`,
      body: { name: 'again', uri: 'http://127.0.0.1:4010/webhooks', active: false },
      status: 409,
    },
    {
      label: 'no credential',
      method: 'GET',
      path: demo,
      key: null,
      status: 401,
      invalidRequest: true,
    },
    {
      label: 'a page out of range',
      method: 'GET',
      path: `${demo}/users/${DEMO.users.admin}/invites`,
      query: { page: '0' },
      status: 400,
      invalidRequest: true,
    },
    {
      label: 'reviews of a quest, second page by cursor',
      method: 'GET',
      path: `${demo}/reviews`,
      query: { questId: DEMO.quests.partnership, limit: '1' },
      status: 200,
    },
    {
      label: 'an unknown review',
      method: 'GET',
      path: `${demo}/reviews/00000000-0000-4000-8000-0000000000ff/events`,
      status: 404,
    },
    {
      label: 'a star with fail (a rule the document states in words)',
      method: 'POST',
      path: `${demo}/reviews`,
      body: { claimedQuestIds: [DEMO.reviews.flagged], status: 'fail', mark: 'star' },
      status: 400,
    },
    {
      label: 'a success reviewed as fail directly',
      method: 'POST',
      path: `${demo}/reviews`,
      body: { claimedQuestIds: [DEMO.reviews.starred], status: 'fail' },
      status: 409,
    },
    {
      label: 'unknown fields',
      method: 'POST',
      path: `${demo}/webhooks`,
      body: { url: 'http://127.0.0.1:4010/x', secret: 's' },
      status: 400,
      invalidRequest: true,
    },
  ];
  const deleteLast = examples.filter((call) => call.method === 'DELETE');
  return [...examples.filter((call) => call.method !== 'DELETE'), ...errors, ...deleteLast];
}

interface Violation {
  location?: string[];
  message?: string;
}

describe("the OpenAPI document, through Prism's validating proxy", () => {
  it('holds for every operation and the common errors: no violation', async () => {
    const report: string[] = [];
    const list = calls();
    for (const call of list) {
      const query = call.query ? `?${new URLSearchParams(call.query)}` : '';
      const headers: Record<string, string> = {};
      if (call.key !== null) headers['x-api-key'] = call.key ?? RW;
      if (call.body !== undefined) headers['content-type'] = 'application/json';
      const answer = await fetch(`${prismUrl}${call.path}${query}`, {
        method: call.method,
        headers,
        ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
      });
      const text = await answer.text();
      const header = answer.headers.get('sl-violations');
      const violations = (header ? JSON.parse(header) : []) as Violation[];
      const counted = call.invalidRequest
        ? violations.filter((v) => v.location?.[0] !== 'request')
        : violations;
      // Prism is really validating: what the document refuses, it reports.
      if (call.invalidRequest && !violations.some((v) => v.location?.[0] === 'request')) {
        report.push(`${call.label}: Prism saw no request violation (${header})`);
      }
      if (answer.status !== call.status) {
        report.push(
          `${call.label}: status ${answer.status}, expected ${call.status}: ${text.slice(0, 200)}`,
        );
      }
      for (const violation of counted) {
        report.push(`${call.label}: ${violation.location?.join('.')}: ${violation.message}`);
      }
    }
    expect(list.length).toBeGreaterThanOrEqual(PUBLIC_ROUTES.length + 17);
    expect(report).toEqual([]);
  }, 60_000);
});
