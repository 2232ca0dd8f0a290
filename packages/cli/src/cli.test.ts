import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_FLAGS } from './commands/check.js';

// The built binary, as a user runs it (`pnpm build` runs before the tests).
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const KEY = 'cli-test-key-7d2e';
const FAST = ['--timeout', '2000', '--burst', '2', '--samples', '2'];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function questkit(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(
        ([name]) => !name.startsWith('QUESTKIT_') && name !== 'NO_COLOR',
      ),
    );
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...clean, ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

// A small correct endpoint; `badKeyStatus` makes it answer 401 to a missing or wrong key.
function endpoint(badKeyStatus = 400): RequestListener {
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = (status: number, message: string) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message }));
      };
      if (req.method !== 'POST') return answer(400, 'Use POST.');
      if (req.headers['x-api-key'] !== KEY) return answer(badKeyStatus, 'Wrong key.');
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return answer(400, 'Not JSON.');
      }
      if (typeof body !== 'object' || body === null) return answer(400, 'Not an object.');
      for (const field of ['userId', 'communityId', 'subdomain', 'questId', 'requestId']) {
        if (typeof body[field] !== 'string') return answer(400, `Missing ${field}.`);
      }
      const accounts = body.accounts as Record<string, unknown> | undefined;
      if (accounts !== undefined && (typeof accounts !== 'object' || accounts === null))
        return answer(400, 'Bad accounts.');
      for (const [name, value] of Object.entries(accounts ?? {})) {
        if (['email', 'wallet', 'svc-connect'].includes(name) && typeof value !== 'string')
          return answer(400, `Bad ${name}.`);
        if (name === 'discord' || name === 'twitter') {
          const inner = value as Record<string, unknown> | null;
          const second = name === 'discord' ? 'handle' : 'username';
          if (
            typeof inner !== 'object' ||
            inner === null ||
            typeof inner.id !== 'string' ||
            typeof inner[second] !== 'string'
          ) {
            return answer(400, `Bad ${name}.`);
          }
        }
      }
      answer(200, 'Verified.');
    });
  };
}

const servers: Server[] = [];
async function listen(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/verify`;
}
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'questkit-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function noStackTrace(run: Run) {
  expect(`${run.stdout}${run.stderr}`).not.toMatch(/\n\s+at .+:\d+:\d+/);
}

describe('questkit (built binary)', () => {
  it('lists its commands with --help and exits 0', async () => {
    const run = await questkit(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Usage: questkit <command>/);
    expect(run.stdout).toMatch(/^ {2}check\s+Check a verification endpoint/m);
  });

  it('prints usage and exits 2 without a command or with an unknown one', async () => {
    const none = await questkit([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/Usage: questkit/);
    const unknown = await questkit(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "frobnicate"/);
  });
});

describe('questkit check (built binary)', () => {
  it('documents every flag with its environment twin in --help', async () => {
    const run = await questkit(['check', '--help']);
    expect(run.code).toBe(0);
    for (const flag of CHECK_FLAGS) {
      expect(run.stdout).toContain(`--${flag.name}`);
      if (flag.env) expect(run.stdout).toContain(`env ${flag.env}`);
    }
    expect(run.stdout).toMatch(/Exit codes: 0 nothing failed, 1 a check failed/);
  });

  it('has a README row for every flag with its environment twin', async () => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    for (const flag of CHECK_FLAGS) {
      const row = readme.split('\n').find((line) => line.startsWith(`| \`--${flag.name}`));
      expect(row, flag.name).toBeDefined();
      if (flag.env) expect(row).toContain(`\`${flag.env}\``);
    }
  });

  it.each([
    [['check', 'http://127.0.0.1:9/verify', '--bogus'], /Unknown option '--bogus'/],
    [
      ['check', 'http://127.0.0.1:9/verify', '--timeout', 'soon'],
      /--timeout must be a positive integer/,
    ],
    [
      ['check', 'http://127.0.0.1:9/verify', '--expect-pass', '--expect-fail'],
      /exclude each other/,
    ],
    [['check', 'ftp://127.0.0.1/verify'], /must be an http:\/\/ or https:\/\/ URL/],
    [['check'], /the endpoint URL is missing/],
    [
      ['check', 'http://127.0.0.1:9/verify', '--connect-url', 'http://127.0.0.1:9/c'],
      /--connect-url and --secret go together/,
    ],
    [
      ['check', 'http://127.0.0.1:9/verify', '--accounts', '{"emial":"a@b.c"}'],
      /--accounts: accounts: Unrecognized key/,
    ],
  ])('exits 2 with a clear message for a usage error %#', async (args, message) => {
    const run = await questkit(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toMatch(/Usage: questkit check <url> \[options\]/);
    expect(run.stdout).toBe('');
    noStackTrace(run);
  });

  it('reads flags from their environment twins and reports a bad twin by name', async () => {
    const run = await questkit(['check', 'http://127.0.0.1:9/verify'], {
      QUESTKIT_SAMPLES: 'many',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/QUESTKIT_SAMPLES must be a positive integer/);
  });

  it('exits 1 with a clear message for an unreachable URL', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const run = await questkit(['check', `http://127.0.0.1:${port}/verify`, ...FAST]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/Cannot reach the endpoint: connection refused \(ECONNREFUSED\)/);
    noStackTrace(run);

    const json = await questkit(['check', `http://127.0.0.1:${port}/verify`, '--json', ...FAST]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).unreachable).toMatch(/ECONNREFUSED/);
    expect(json.stderr).toMatch(
      /cannot reach http:\/\/127\.0\.0\.1:\d+\/verify: connection refused/,
    );
  });

  it('exits 0 and prints the table for an endpoint that passes', async () => {
    const url = await listen(endpoint());
    const run = await questkit(['check', url, '--api-key', KEY, '--expect-pass', ...FAST]);
    // Not a terminal (a CI log): one plain line per probe as it finishes.
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(43);
    expect(lines[0]).toBe('[ 1/43] PASS claim.well-formed');
    expect(run.stderr).not.toContain('\u001b');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/PASS\s+\S+ ms\s+claim\.well-formed/);
    expect(run.stdout).toMatch(/45 checks: 45 passed, 0 warned, 0 failed, 0 skipped/);
    expect(run.stdout).toMatch(/A well-formed claim got: 200 "/);
    expect(run.stdout).toMatch(/OK: nothing failed\./);
    // Not a terminal: no colors, no progress line.
    expect(run.stdout).not.toContain('\u001b[');
  });

  it('exits 1, names the failing checks in --json and never prints the key', async () => {
    const url = await listen(endpoint(401));
    const run = await questkit(['check', url, '--json', ...FAST], { QUESTKIT_API_KEY: KEY });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    const failing = report.checks
      .filter((c: { status: string }) => c.status === 'fail')
      .map((c: { id: string }) => c.id);
    expect(failing).toEqual(['auth.missing-key', 'auth.wrong-key']);
    expect(report.summary).toMatchObject({ ok: false, failed: 2 });
    expect(run.stdout).not.toContain(KEY);

    const human = await questkit(['check', url, ...FAST], {
      QUESTKIT_API_KEY: KEY,
      QUESTKIT_ONLY: 'auth.',
      QUESTKIT_VERBOSE: '1',
    });
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/FAIL {2}auth\.wrong-key\n\s+✗ status_code: answered 401/);
    expect(human.stdout).toContain('"x-api-key: $QUESTKIT_API_KEY"');
    expect(human.stdout).not.toContain(KEY);
  });

  it('writes a JUnit report with --junit', async () => {
    const url = await listen(endpoint(401));
    const file = join(dir, 'conformance.xml');
    const run = await questkit([
      'check',
      url,
      '--api-key',
      KEY,
      '--junit',
      file,
      '--only',
      'auth.,body.',
      ...FAST,
    ]);
    expect(run.code).toBe(1);
    const xml = await readFile(file, 'utf8');
    expect(xml).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>/);
    expect(xml).toMatch(
      /<testsuites name="questkit conformance" tests="8" failures="2" errors="0" skipped="0"/,
    );
    expect(xml).toMatch(
      /<testcase classname="questkit\.conformance\.auth" name="auth\.wrong-key: [^"]+" time="[\d.]+">\s*<failure message="answered 401; only 200 and 400 are allowed" type="status_code">/,
    );
    expect(xml).not.toContain(KEY);
  });

  it('exits 2 when the JUnit file cannot be written, after printing the report', async () => {
    const url = await listen(endpoint());
    const run = await questkit([
      'check',
      url,
      '--api-key',
      KEY,
      '--only',
      'claim',
      '--junit',
      join(dir, 'missing', 'x.xml'),
      ...FAST,
    ]);
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(/OK: nothing failed/);
    expect(run.stderr).toMatch(/cannot write the JUnit report to .*x\.xml \(ENOENT\)/);
    noStackTrace(run);
  });
});
