import { execFile, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import type { ConformanceReport } from '@questkit/conformance';
import {
  createMockPlatform,
  type EndpointCheck,
  type MockServer,
  startMockServer,
} from '@questkit/mock-platform';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { CORPUS, CRASHING, type Target } from './corpus.js';
import { expressEndpoint } from './endpoints/express.js';
import { fastifyEndpoint } from './endpoints/fastify.js';
import { getOnlyEndpoint } from './endpoints/get-only.js';
import { honoEndpoint } from './endpoints/hono.js';
import { nestEndpoint } from './endpoints/nestjs.js';
import { nodeHttpEndpoint } from './endpoints/node-http.js';
import { serverlessEndpoint } from './endpoints/serverless.js';
import { freePort } from './free-port.js';

// Both judges on every endpoint of the corpus: `questkit check` (the built binary, as a user runs
// it) and the mock platform's endpoint check (over HTTP). Same endpoint, key and identification
// methods: the same platform verdict, worded alike.

// The Next.js app (next-app.setup.ts) checks its own key: every endpoint here checks that one.
const nextApp = inject('nextApp');
const KEY = nextApp.apiKey;
// The CLI by its path in the workspace, not as a dependency: pnpm would link its bin before the
// CLI is built, and warn on every fresh install that it cannot.
const CLI = fileURLToPath(new URL('../../packages/cli/dist/cli.js', import.meta.url));

const urls = new Map<Target, string>();
const servers: Server[] = [];
const closers: Array<() => Promise<unknown>> = [];
let mock: MockServer | undefined;

const origin = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

async function listen(server: Server): Promise<string> {
  if (!server.listening) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  }
  await new Promise<void>((resolve) =>
    server.listening ? resolve() : server.once('listening', resolve),
  );
  servers.push(server);
  return origin(server);
}

// Express and Hono print the errors of the endpoints' own crashes, as they do in production: the
// corpus wants those crashes, so their lines stay out of the test log.
const frameworkErrors: unknown[] = [];

beforeAll(async () => {
  vi.spyOn(console, 'error').mockImplementation((...args) => frameworkErrors.push(args));
  urls.set('node-http', `${await listen(nodeHttpEndpoint(KEY))}/verify`);
  urls.set(
    'node-http-401',
    `${await listen(nodeHttpEndpoint(KEY, { unauthorized401: true }))}/verify`,
  );
  urls.set(
    'node-http-connect-only',
    `${await listen(nodeHttpEndpoint(KEY, { connectOnly: true }))}/verify`,
  );
  urls.set('express-json', `${await listen(expressEndpoint(KEY, { parser: true }))}/verify`);
  urls.set('express-no-parser', `${await listen(expressEndpoint(KEY, { parser: false }))}/verify`);
  const fastify = fastifyEndpoint(KEY);
  await fastify.listen({ port: 0, host: '127.0.0.1' });
  closers.push(() => fastify.close());
  urls.set('fastify', `${origin(fastify.server)}/verify`);
  urls.set(
    'hono',
    `${await listen(createServer(getRequestListener(honoEndpoint(KEY).fetch)))}/verify`,
  );
  const nest = await nestEndpoint(KEY);
  closers.push(() => nest.close());
  urls.set('nestjs', `${origin(nest.getHttpServer())}/verify`);
  urls.set('serverless', `${await listen(serverlessEndpoint(KEY))}/verify`);
  urls.set('express-get-only', `${await listen(getOnlyEndpoint(KEY))}/verify`);
  for (const [target, faults] of [
    ['node-http-html', { htmlContentType: true }],
    ['node-http-says-no', { saysNoWith200: true }],
    ['node-http-one-refusal', { oneRefusal: true }],
  ] as const) {
    urls.set(target, `${await listen(nodeHttpEndpoint(KEY, faults))}/verify`);
  }
  mock = await startMockServer(createMockPlatform({ seed: { users: 0 }, rateLimit: false }), {
    port: 0,
  });
  urls.set('next-app-router', `${nextApp.origin}/api/post-only`);
  urls.set('next-pages-router', `${nextApp.origin}/api/verify`);
});

afterAll(async () => {
  vi.restoreAllMocks();
  await mock?.close();
  for (const close of closers) await close();
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/**
 * A crashing endpoint in a process of its own, fresh for each judge: it really dies. Resolves
 * with its URL and a stop that ends it if it is still up.
 */
async function startCrashing(
  mode: 'without-wallet' | 'wrong-key',
): Promise<{ url: string; stop: () => Promise<void> }> {
  const script = fileURLToPath(new URL('./endpoints/crashing.mjs', import.meta.url));
  const child = spawn(process.execPath, [script, mode, KEY], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('the crashing endpoint did not start')),
      20_000,
    );
    child.stdout.once('data', (chunk: Buffer) => {
      clearTimeout(timer);
      resolve(chunk.toString('utf8').trim());
    });
  });
  return {
    url: `http://127.0.0.1:${port}/verify`,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill();
      await exited;
    },
  };
}

interface CliRun {
  code: number;
  report: ConformanceReport;
}

function questkitCheck(args: string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [CLI, 'check', ...args, '--json', '--burst', '2', '--samples', '2'],
      { timeout: 120_000, env: { PATH: process.env.PATH ?? '' } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        try {
          resolve({ code, report: JSON.parse(stdout) as ConformanceReport });
        } catch {
          reject(new Error(`questkit check printed no JSON (exit ${code}): ${stderr}`));
        }
      },
    );
  });
}

async function mockCheck(body: Record<string, unknown>): Promise<EndpointCheck> {
  const response = await fetch(`${mock!.url}/__mock/endpoint-checks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(120_000),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as EndpointCheck;
}

/**
 * The URL of a port nothing listens on, freed just before its run: one freed at set-up, minutes
 * earlier, may by then be another test's server (it once answered as a passing endpoint).
 */
async function closedPortUrl(target: string): Promise<string> {
  if (target !== 'closed-port') throw new Error(`no endpoint for the corpus target ${target}`);
  return `http://127.0.0.1:${await freePort()}/verify`;
}

/** Every sentence of a report a person reads: the headline, findings, reasons and advice. */
function sentences(report: ConformanceReport): string[] {
  return [
    ...(report.summary.headline ? [report.summary.headline] : []),
    ...report.checks.flatMap((check) => [
      ...check.findings.map((finding) => finding.message),
      ...(check.skipReason ? [check.skipReason] : []),
    ]),
    ...report.summary.advice,
  ];
}

describe('the corpus: both judges give each endpoint its true verdict', () => {
  it.each(CORPUS.map((entry) => [entry.name, entry] as const))('%s', async (_name, entry) => {
    const crashing = CRASHING[entry.target];
    const first = crashing ? await startCrashing(crashing) : undefined;
    const endpoint = first?.url ?? urls.get(entry.target) ?? (await closedPortUrl(entry.target));
    const url = entry.path ? new URL(entry.path, endpoint).href : endpoint;
    const identifications = entry.args?.[entry.args.indexOf('--identifications') + 1];
    const key = entry.key ?? KEY;
    const cli = await questkitCheck([
      url,
      ...(entry.noKey ? [] : ['--api-key', key]),
      ...(entry.args ?? []),
    ]).finally(() => first?.stop());
    const { summary } = cli.report;
    expect({
      exit: cli.code,
      verdict: summary.verdict,
      platform: summary.tiers.platform,
    }).toEqual({ exit: entry.exit, verdict: entry.verdict, platform: entry.platform });
    if (entry.hardening !== 'any') expect(summary.tiers.hardening).toBe(entry.hardening);
    if (entry.members !== undefined) expect(summary.tiers.members).toBe(entry.members);
    expect(sentences(cli.report)).toContainEqual(expect.stringMatching(entry.sentence));

    if (!entry.mock) return;
    const second = crashing ? await startCrashing(crashing) : undefined;
    const record = await mockCheck({
      endpoint: second?.url ?? url,
      apiKey: key,
      ...(identifications ? { identifications: identifications.split(',') } : {}),
    }).finally(() => second?.stop());
    const expected =
      summary.tiers.platform === 'fail'
        ? 'fail'
        : summary.tiers.platform === 'not_judged'
          ? 'not_judged'
          : 'pass';
    expect(record.verdict).toBe(expected);
    // The mock's own pass or fail (the key included) is the exit code's.
    if (record.passed !== null) expect(record.passed).toBe(entry.mockPassed ?? entry.exit === 0);
    expect(record.platform).toEqual(summary.platform);
    if (entry.stops && entry.mockPassed === undefined) {
      // Both saw the server stop; where depends on which calls were in flight together.
      expect(record.stoppedAnswering).toMatch(entry.sentence);
      expect(record.headline).toBe(record.stoppedAnswering);
      expect(record.passed).toBe(false);
      return;
    }
    if (entry.stops) {
      // Only a request the platform never sends stopped it: the mock's calls never do.
      expect(record.stoppedAnswering).toBeNull();
    } else {
      expect(record.headline).toBe(summary.headline ?? null);
    }
    // Call by call, the same verdict in the same words.
    const platformCalls = cli.report.checks
      .filter((check) => check.tier === 'platform')
      .map((check) => ({
        id: check.id,
        status: check.status,
        findings: check.findings.map((finding) => finding.message),
      }));
    expect(
      record.calls.map((call) => ({
        id: call.id,
        status: call.status,
        findings: call.findings.map((finding) => finding.message),
      })),
    ).toEqual(platformCalls);
  });
});
