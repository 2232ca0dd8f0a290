import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as mock from '@questkit/mock-platform';
import { DEMO, type MockServer } from '@questkit/mock-platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFlags } from '../../flags.js';
import type { CliIo } from '../../io.js';
import { MOCK_FLAGS } from './flags.js';
import { runMock } from './run.js';

// The mock decides from `--host` (here an address beyond loopback) but listens on loopback, so
// the test attacks it without a port open to the network.
const EXPOSED_HOST = '0.0.0.0';
const PUBLISHED_KEYS = [DEMO.apiKeys.readWrite, DEMO.apiKeys.readOnly, DEMO.sandbox.apiKey];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'questkit-exposed-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function exposedMock(
  argv: string[],
  use: (url: string, printed: () => string) => Promise<void>,
  host: string[] = ['--host', EXPOSED_HOST],
) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    env: {},
    writeFile: async () => {},
    onInterrupt: () => () => {},
  };
  const stop = new AbortController();
  let failure: unknown;
  const parsed = parseFlags(MOCK_FLAGS, ['--port', '0', ...host, ...argv], {});
  const code = await runMock(mock, parsed.values, io, {
    bindHost: '127.0.0.1',
    signal: stop.signal,
    onListening: (server: MockServer) => {
      use(`http://127.0.0.1:${server.port}`, () => out.join(''))
        .catch((error) => {
          failure = error;
        })
        .finally(() => stop.abort());
    },
  });
  if (failure) throw failure;
  return { code, out: out.join(''), err: err.join('') };
}

const status = async (url: string, key: string, path = '/public/communities/demo') =>
  (await fetch(`${url}${path}`, { headers: { 'x-api-key': key } })).status;

describe('questkit mock bound beyond loopback: every published credential replaced', () => {
  it('refuses every published key and connect secret; the banner shows the new ones once', async () => {
    const argv = ['--seed', '0', '--api-key', 'operator-chosen-key-1'];
    const { out, err } = await exposedMock(argv, async (url, banner) => {
      // The published keys: demo read-write and read-only, sandbox read-write.
      expect(await status(url, DEMO.apiKeys.readWrite)).toBe(401);
      expect(await status(url, DEMO.apiKeys.readOnly)).toBe(401);
      expect(await status(url, DEMO.sandbox.apiKey, '/public/communities/sandbox')).toBe(401);
      // --api-key still sets the demo read-write key.
      expect(await status(url, 'operator-chosen-key-1')).toBe(200);
      const printed = banner();
      const readOnly = /x-api-key \(read-only\)\s+(\S+)/.exec(printed)?.[1];
      const sandbox = /sandbox.*x-api-key \(read-write\)\s+(\S+)/s.exec(printed)?.[1];
      expect(readOnly).toMatch(/^qk_/);
      expect(sandbox).toMatch(/^qk_/);
      expect(await status(url, readOnly!)).toBe(200);
      expect(await status(url, sandbox!, '/public/communities/sandbox')).toBe(200);
    });
    const all = out + err;
    for (const key of PUBLISHED_KEYS) expect(all).not.toContain(key);
    expect(all).not.toContain(DEMO.connectSecret);
    expect(all).not.toContain('sandbox-connect-secret-change-me');
    // The operator's own key is never echoed.
    expect(all).not.toContain('operator-chosen-key-1');
    // Each new credential is printed once.
    const readOnly = /x-api-key \(read-only\)\s+(\S+)/.exec(out)![1]!;
    expect(all.split(readOnly).length - 1).toBe(1);
    expect(out).toMatch(/connect secret\s+cs_[0-9a-f]{64}/);
    // The warning says which credentials the public API accepts.
    expect(err).toMatch(/public API accepts only/);
    expect(err).toContain('demo: read-write (the key given with --api-key), read-only');
    expect(err).toContain('sandbox: read-write');
    expect(err).toMatch(/published demo keys are refused/);
  });

  it('writes the new credentials to a file the operator names instead, 0600', async () => {
    const file = join(dir, 'credentials.json');
    let accepted = 0;
    const { out, err } = await exposedMock(
      ['--seed', '0', '--credentials-file', file],
      async (url) => {
        const saved = JSON.parse(await readFile(file, 'utf8')) as {
          communities: Record<string, { apiKeys: Record<string, string>; connectSecret: string }>;
        };
        expect(Object.keys(saved.communities).sort()).toEqual(['demo', 'sandbox']);
        for (const [subdomain, community] of Object.entries(saved.communities)) {
          for (const key of Object.values(community.apiKeys)) {
            expect(await status(url, key, `/public/communities/${subdomain}`)).toBe(200);
            accepted += 1;
          }
        }
        for (const key of PUBLISHED_KEYS) expect(await status(url, key)).toBe(401);
      },
    );
    expect(accepted).toBe(3);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const saved = await readFile(file, 'utf8');
    const keys = [...saved.matchAll(/"(qk_[^"]+|cs_[^"]+)"/g)].map((m) => m[1]!);
    expect(keys.length).toBe(5);
    for (const key of keys) expect(out + err).not.toContain(key);
    expect(out).toContain(`written to ${file}`);
  });

  it('keeps the published demo keys on loopback', async () => {
    const out: string[] = [];
    const stop = new AbortController();
    const parsed = parseFlags(MOCK_FLAGS, ['--port', '0', '--seed', '0'], {});
    let answered = 0;
    await runMock(
      mock,
      parsed.values,
      {
        stdout: { write: (text: string) => out.push(text) },
        stderr: { write: () => {} },
        env: {},
        writeFile: async () => {},
        onInterrupt: () => () => {},
      },
      {
        signal: stop.signal,
        onListening: (server) => {
          status(server.url, DEMO.apiKeys.readOnly)
            .then((code) => {
              answered = code;
            })
            .finally(() => stop.abort());
        },
      },
    );
    expect(answered).toBe(200);
    expect(out.join('')).toContain(DEMO.apiKeys.readOnly);
  });
});

// A mock bound to loopback but published through a tunnel or a proxy on the same machine is
// reached from anywhere: naming a public Host or a public URL makes it exposed, as `--host` does.
describe('questkit mock on loopback, published through a tunnel or a proxy', () => {
  const TUNNEL = 'quest-mock.tunnel.example';
  const published = [
    ['--allowed-hosts', `localhost,${TUNNEL}`],
    ['--public-url', `https://${TUNNEL}`],
  ];
  it.each(
    published,
  )('with %s %s: published keys refused, control routes need the token, a warning', async (flag, value) => {
    const { err } = await exposedMock(
      ['--seed', '0', flag, value],
      async (url, banner) => {
        expect(await status(url, DEMO.apiKeys.readOnly)).toBe(401);
        expect(await status(url, DEMO.apiKeys.readWrite)).toBe(401);
        const control = await fetch(`${url}/__mock/tokens`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ userId: DEMO.users.admin }),
        });
        expect(control.status).toBe(403);
        expect(banner()).not.toContain(DEMO.apiKeys.readOnly);
      },
      ['--host', '127.0.0.1'],
    );
    expect(err).toMatch(/^Warning: reachable beyond loopback/);
    expect(err).toContain(`${flag} ${value}`);
    expect(err).toMatch(/x-questkit-control-token: \S+/);
  });

  it.each([
    ['--allowed-hosts', 'localhost,127.0.0.2,[::1]'],
    ['--public-url', 'http://localhost:4010'],
  ])('with %s %s (loopback only): still the published demo keys, no warning', async (flag, value) => {
    const { err } = await exposedMock(
      ['--seed', '0', flag, value],
      async (url) => {
        expect(await status(url, DEMO.apiKeys.readOnly)).toBe(200);
      },
      ['--host', '127.0.0.1'],
    );
    expect(err).toBe('');
  });
});
