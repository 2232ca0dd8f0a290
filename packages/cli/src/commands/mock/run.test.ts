import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as mock from '@questkit/mock-platform';
import {
  DEFAULT_GENERATED_USERS,
  DEFAULT_RATE_LIMIT_PER_SECOND,
  DEMO,
  type MockServer,
} from '@questkit/mock-platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFlags } from '../../flags.js';
import type { CliIo } from '../../io.js';
import { MOCK_DEFAULT_RATE_LIMIT, MOCK_DEFAULT_SEED, MOCK_FLAGS } from './flags.js';
import { type MockRunHooks, runMock } from './run.js';

/** `questkit mock` with these arguments, through the CLI's parser, as the binary runs it. */
function runMockCli(
  argv: string[],
  env: Record<string, string>,
  io: { stdout?: (text: string) => void; stderr?: (text: string) => void } & MockRunHooks,
): Promise<number> {
  const cliIo: CliIo = {
    stdout: { write: (text: string) => io.stdout?.(text) },
    stderr: { write: (text: string) => io.stderr?.(text) },
    env,
    writeFile: async () => {},
    onInterrupt: () => () => {},
  };
  const parsed = parseFlags(MOCK_FLAGS, argv, env);
  return runMock(mock, parsed.values, cliIo, io);
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'questkit-mock-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the CLI until `use` is done with the server, then stops it; the output and exit code. */
async function withCli(
  argv: string[],
  env: Record<string, string> = {},
  use: (server: MockServer, printed: () => string) => Promise<void> = async () => {},
  onStderr: (text: string) => void = () => {},
) {
  const out: string[] = [];
  const err: string[] = [];
  const stop = new AbortController();
  let failure: unknown;
  const code = await runMockCli(['--port', '0', ...argv], env, {
    stdout: (text) => out.push(text),
    stderr: (text) => {
      err.push(text);
      onStderr(text);
    },
    signal: stop.signal,
    onListening: (server) => {
      use(server, () => out.join(''))
        .catch((error) => {
          failure = error;
        })
        .finally(() => stop.abort());
    },
  });
  if (failure) throw failure;
  return { code, out: out.join(''), err: err.join('') };
}

describe('questkit mock', () => {
  it("states the mock platform's own defaults in its help", () => {
    expect(MOCK_DEFAULT_SEED).toBe(DEFAULT_GENERATED_USERS);
    expect(MOCK_DEFAULT_RATE_LIMIT).toBe(DEFAULT_RATE_LIMIT_PER_SECOND);
  });

  it('serves over HTTP and prints the base URL and the demo credentials', async () => {
    let url = '';
    const { code, out } = await withCli(['--seed', '3'], {}, async (server, printed) => {
      url = server.url;
      // The printed admin token works.
      const token = /Bearer (\S+)/.exec(printed())?.[1];
      const asAdmin = await fetch(`${server.url}/public/communities/demo/quests`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(asAdmin.status).toBe(200);
      const answer = await fetch(`${server.url}/public/communities/demo`, {
        headers: { 'x-api-key': DEMO.apiKeys.readWrite },
      });
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { totalMembers: number }).totalMembers).toBe(12);
    });
    expect(code).toBe(0);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(out).toContain(`listening on ${url}`);
    expect(out).toContain(`${url}/docs`);
    // Short enough that the keys and the dashboard stay on screen: the routes under --verbose.
    expect(out.trimEnd().split('\n').length).toBeLessThanOrEqual(16);
    expect(out).toContain(`Dashboard ${url}/__mock/dashboard`);
    expect(out).toContain('--verbose lists them');
    expect(out).not.toContain('POST   /__mock/tokens');
    expect(out).toContain('Clock    system time (start with --clock manual');
    expect(out).toContain(DEMO.apiKeys.readWrite);
    expect(out).toContain(DEMO.apiKeys.readOnly);
    // What the demo quests call, and with which key.
    expect(out).toContain(
      `their API tasks call ${DEMO.verifyEndpoint} with x-api-key ${DEMO.taskApiKey}`,
    );
    expect(out).toContain(`QUEST_API_KEY=${DEMO.taskApiKey}`);
  });

  it('lists every control route that works in this mode with an example under --verbose', async () => {
    const { out } = await withCli(['--seed', '0', '--verbose']);
    // Every control route that works on the system clock, with an example; not the advance.
    for (const route of mock.CONTROL_ROUTES.filter((r) => r.path !== '/__mock/clock/advance'))
      expect(out).toContain(`${route.method.padEnd(6)} ${route.path}`);
    expect(out).not.toContain('/__mock/clock/advance');
    expect(out).not.toContain('--verbose lists them');
  });

  it('points the demo quests at --verify-endpoint (or QUESTKIT_MOCK_VERIFY_ENDPOINT)', async () => {
    const calls: string[] = [];
    const app = createServer((request, response) => {
      calls.push(`${request.method} ${request.url} ${request.headers['x-api-key']}`);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"message":"ok"}');
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(app.address() as AddressInfo).port}/quests/verify`;
    try {
      for (const [argv, env] of [
        [['--verify-endpoint', endpoint], {}],
        [[], { QUESTKIT_MOCK_VERIFY_ENDPOINT: endpoint }],
      ] as const) {
        const { out } = await withCli(['--seed', '0', ...argv], env, async (server) => {
          const claim = await fetch(
            `${server.url}/__mock/communities/demo/quests/${DEMO.quests.verifyEmail}/claims`,
            {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ userId: DEMO.users.admin }),
            },
          );
          expect(claim.status).toBeLessThan(300);
        });
        expect(out).toContain(`their API tasks call ${endpoint} with x-api-key`);
      }
      expect(calls).toEqual([
        `POST /quests/verify ${DEMO.taskApiKey}`,
        `POST /quests/verify ${DEMO.taskApiKey}`,
      ]);
    } finally {
      await new Promise((resolve) => app.close(resolve));
    }
    // A saved state keeps its own endpoints: both together is a usage error, before any start.
    await expect(
      runMockCli(['--port', '0', '--fixtures', 'x.json', '--verify-endpoint', endpoint], {}, {}),
    ).rejects.toThrow(/--verify-endpoint sets the demo seed's quests/);
    expect(() => parseFlags(MOCK_FLAGS, ['--verify-endpoint', 'localhost:4010'], {})).toThrow(
      /--verify-endpoint must be an absolute http:\/\/ or https:\/\/ URL/,
    );
  });

  it('runs a manual clock from --clock or QUESTKIT_MOCK_CLOCK, and lists the advance then', async () => {
    const { out } = await withCli(
      ['--seed', '0', '--clock', '2030-01-02', '--verbose'],
      {},
      async (server) => {
        expect(server.platform.service.scheduler.mode).toBe('manual');
        expect(server.platform.clock.now().toISOString()).toBe('2030-01-02T00:00:00.000Z');
      },
    );
    expect(out).toContain('Clock    manual, standing at 2030-01-02T00:00:00.000Z');
    expect(out).toContain('POST   /__mock/clock/advance');
    // The rate limit refills in real time although the platform clock stands still.
    const key = DEMO.apiKeys.readOnly;
    await withCli(
      ['--seed', '0', '--rate-limit', '1'],
      { QUESTKIT_MOCK_CLOCK: 'manual' },
      async (server) => {
        expect(server.platform.service.scheduler.mode).toBe('manual');
        const call = () =>
          fetch(`${server.url}/public/communities/demo`, { headers: { 'x-api-key': key } });
        expect((await call()).status).toBe(200);
        expect((await call()).status).toBe(429);
        await new Promise((resolve) => setTimeout(resolve, 1_100));
        expect((await call()).status).toBe(200);
      },
    );
    await withCli(['--seed', '0', '--clock', 'system'], {}, async (server) => {
      expect(server.platform.service.scheduler.mode).toBe('timers');
    });
    for (const bad of ['later', '2025-13-01', '12:00Z']) {
      expect(() => parseFlags(MOCK_FLAGS, ['--clock', bad], {}), bad).toThrow(
        /--clock must be system, manual or an ISO 8601 date-time/,
      );
    }
    expect(() => parseFlags(MOCK_FLAGS, [], { QUESTKIT_MOCK_CLOCK: 'soon' })).toThrow(
      /QUESTKIT_MOCK_CLOCK must be/,
    );
  });

  it('uses --api-key as the demo read-write key without echoing it', async () => {
    const key = 'qk_my_own_secret_key_123';
    const { out } = await withCli(['--seed', '0', '--api-key', key], {}, async (server) => {
      const mine = await fetch(`${server.url}/public/communities/demo/modules`, {
        headers: { 'x-api-key': key },
      });
      expect(mine.status).toBe(200);
      const old = await fetch(`${server.url}/public/communities/demo/modules`, {
        headers: { 'x-api-key': DEMO.apiKeys.readWrite },
      });
      expect(old.status).toBe(401);
    });
    expect(out).not.toContain(key);
    expect(out).toContain('--api-key');
  });

  it('reads the environment twins', async () => {
    const key = 'qk_env_secret_key_456';
    const { out } = await withCli(
      [],
      { QUESTKIT_MOCK_API_KEY: key, QUESTKIT_MOCK_SEED: '0', QUESTKIT_MOCK_RATE_LIMIT: '1' },
      async (server) => {
        const call = () =>
          fetch(`${server.url}/public/communities/demo`, { headers: { 'x-api-key': key } });
        expect((await call()).status).toBe(200);
        const limited = await call();
        expect(limited.status).toBe(429);
        expect(limited.headers.get('retry-after')).toBe('1');
      },
    );
    expect(out).not.toContain(key);
    expect(out).toContain('QUESTKIT_MOCK_API_KEY');
    expect(out).toContain('members                 9');
  });

  it('saves the state on exit and loads it back with --fixtures', async () => {
    const file = join(dir, 'state.json');
    let webhookId = '';
    const saved = await withCli(['--seed', '2', '--save', file], {}, async (server) => {
      const created = await fetch(`${server.url}/public/communities/demo/webhooks`, {
        method: 'POST',
        headers: { 'x-api-key': DEMO.apiKeys.readWrite, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'kept', uri: 'http://127.0.0.1:9/kept', active: true }),
      });
      webhookId = ((await created.json()) as { id: string }).id;
    });
    expect(saved.code).toBe(0);
    expect(saved.out).toContain(`State saved to ${file}`);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ version: 1 });

    await withCli(['--fixtures', file], {}, async (server) => {
      const list = await fetch(`${server.url}/public/communities/demo/webhooks`, {
        headers: { 'x-api-key': DEMO.apiKeys.readOnly },
      });
      const { items } = (await list.json()) as { items: Array<{ id: string }> };
      expect(items.map((w) => w.id)).toContain(webhookId);
    });
  });

  it('exits 1 for bad fixtures and a port in use, 2 for bad arguments, 0 for --help', async () => {
    const bad = join(dir, 'bad.json');
    await writeFile(bad, '{"version": 1, "communities": "nope"}');
    const fixtures = await runMockCli(
      ['--port', '0', '--fixtures', bad],
      {},
      { stdout: () => {}, stderr: () => {} },
    );
    expect(fixtures).toBe(1);
    let err = '';
    await withCli(['--seed', '0'], {}, async (server) => {
      const taken = await runMockCli(
        ['--port', String(server.port), '--seed', '0'],
        {},
        {
          stdout: () => {},
          stderr: (text) => {
            err += text;
          },
        },
      );
      expect(taken).toBe(1);
    });
    expect(err).toContain('questkit mock:');
    expect(err).toContain('EADDRINUSE');
    expect(err).toContain('--port 0');
    // Bad arguments are the CLI parser's: a usage error (exit 2 from main), with a hint.
    expect(() => parseFlags(MOCK_FLAGS, ['--prot', '1'], {})).toThrow(
      /Unknown option '--prot'.*did you mean --port\?/,
    );
    expect(() => parseFlags(MOCK_FLAGS, ['--port', '70000'], {})).toThrow(
      /--port must be an integer from 0 to 65535/,
    );
    // A date-time without its zone says how to give it; a bad public URL names the flag.
    expect(() => parseFlags(MOCK_FLAGS, ['--clock', '2025-06-01T12:00:00'], {})).toThrow(
      /--clock must be a date-time with its zone: add Z for UTC or an offset such as \+02:00/,
    );
    expect(() => parseFlags(MOCK_FLAGS, ['--public-url', 'notaurl'], {})).toThrow(
      /^--public-url must be an absolute http:\/\/ or https:\/\/ URL/,
    );
    expect(() => parseFlags(MOCK_FLAGS, [], { QUESTKIT_MOCK_SEED: '-1' })).toThrow(
      /QUESTKIT_MOCK_SEED must be/,
    );
    expect(parseFlags(MOCK_FLAGS, ['--port', '0', '--rate-limit', '0'], {}).values).toMatchObject({
      port: 0,
      'rate-limit': 0,
    });
  });

  it('beyond loopback, warns and protects the control routes with a printed token', async () => {
    let err = '';
    await withCli(
      ['--host', '0.0.0.0', '--seed', '0'],
      {},
      async (server) => {
        const local = `http://127.0.0.1:${server.port}`;
        expect((await fetch(`${local}/__mock/clock`)).status).toBe(403);
        const token = /x-questkit-control-token: (\S+)/.exec(err)?.[1];
        expect(token).toBeDefined();
        const withToken = await fetch(`${local}/__mock/clock`, {
          headers: { 'x-questkit-control-token': token! },
        });
        expect(withToken.status).toBe(200);
      },
      (text) => {
        err += text;
      },
    );
    expect(err).toMatch(/^Warning: reachable beyond loopback \(--host 0\.0\.0\.0\)/);
  });
});
