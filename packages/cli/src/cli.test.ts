import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHECK_FLAGS } from './commands/check.js';

// Each test starts the binary, often several times: a busy machine takes seconds per start.
vi.setConfig({ testTimeout: 30_000 });

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
        ([name]) =>
          !name.startsWith('QUESTKIT_') && name !== 'QUEST_API_KEY' && name !== 'NO_COLOR',
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
    expect(run.stdout).toMatch(/Exit codes: 0 passed; 1 a platform or members check failed/);
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
      /--accounts: unknown identification method "emial" \(did you mean "email"\?\)/,
    ],
    [
      ['check', 'http://127.0.0.1:9/verify', '--identifications', 'email,svc_connect'],
      /--identifications: unknown identification method "svc_connect" \(did you mean "svc-connect"\?\)/,
    ],
    [
      ['check', 'http://127.0.0.1:9/verify', '--api-key', 'k', '--no-api-key'],
      /--api-key and --no-api-key exclude each other/,
    ],
    [
      ['check', 'localhost:3000/verify'],
      /no scheme: add http:\/\/ or https:\/\/, as in "http:\/\/localhost:3000\/verify"/,
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
    expect(run.stdout).toMatch(
      /No answer from http:\/\/127\.0\.0\.1:\d+\/verify: connection refused \(ECONNREFUSED\)\. Is the endpoint running/,
    );
    expect(run.stdout).toMatch(/NOT JUDGED: the endpoint never answered\./);
    // A refused connection passes no check, not even the platform's time check.
    expect(run.stdout).toContain(
      'Platform checks: response_time NOT JUDGED  message_format NOT JUDGED  status_code NOT JUDGED',
    );
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
    // The progress count ends where the summary's count is.
    expect(lines).toHaveLength(45);
    expect(lines[0]).toBe('[ 1/45] PASS claim.well-formed');
    expect(lines[44]).toBe('[45/45] PASS member.answer');
    expect(run.stderr).not.toContain('\u001b');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/PASS\s+\S+ ms\s+claim\.well-formed/);
    expect(run.stdout).toMatch(/45 checks: 45 passed, 0 warned, 0 failed, 0 skipped/);
    expect(run.stdout).toMatch(/A well-formed claim got: 200 "/);
    expect(run.stdout).toContain('Tiers: platform PASS  members PASS  hardening PASS');
    expect(run.stdout).toMatch(/PASSED: the platform's checks and your members' claims/);
    // Not a terminal: no colors, no progress line.
    expect(run.stdout).not.toContain('\u001b[');
  });

  it('exits 1, names the failing checks in --json and never prints the key', async () => {
    const url = await listen(endpoint(401));
    const run = await questkit(['check', url, '--json', ...FAST], { QUEST_API_KEY: KEY });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    const failing = report.checks
      .filter((c: { status: string }) => c.status === 'fail')
      .map((c: { id: string }) => c.id);
    expect(failing).toEqual(['auth.missing-key', 'auth.wrong-key']);
    expect(report.summary).toMatchObject({ ok: false, failed: 2 });
    expect(run.stdout).not.toContain(KEY);

    const human = await questkit(['check', url, ...FAST], {
      QUEST_API_KEY: KEY,
      QUESTKIT_ONLY: 'auth.',
      QUESTKIT_VERBOSE: '1',
    });
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(
      /FAIL {2}auth\.wrong-key {2}\[platform\]\n\s+✗ status_code: answered 401/,
    );
    expect(human.stdout).toContain('"x-api-key: $QUEST_API_KEY"');
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
      /<testcase classname="questkit\.conformance\.platform\.auth" name="auth\.wrong-key: [^"]+" time="[\d.]+">\s*<failure message="answered 401; only 200 and 400 are allowed" type="status_code">/,
    );
    expect(xml).not.toContain(KEY);
  });

  it('exits 2 when the JUnit file cannot be written, before sending any claim', async () => {
    let requests = 0;
    const answer = endpoint();
    const url = await listen((request, response) => {
      requests++;
      answer(request, response);
    });
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
    expect(requests).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/cannot write the JUnit report to .*x\.xml \(ENOENT\)/);
    noStackTrace(run);
  });

  it('ends NOT JUDGED and exits 1 without --api-key, unless --no-api-key says the task has none', async () => {
    const url = await listen(endpoint());
    const run = await questkit(['check', url, '--only', 'claim,auth.', ...FAST]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /Next: No API key was given.*--api-key <the task key>.*--no-api-key/,
    );
    expect(run.stdout).toMatch(/NOT JUDGED: /);
    expect(run.stdout).not.toMatch(/PASSED|OK: nothing failed/);

    // A task without a key: this endpoint refuses every claim, which members would meet.
    const keyless = await questkit(['check', url, '--no-api-key', '--only', 'claim', ...FAST]);
    expect(keyless.code).toBe(0);
    expect(keyless.stdout).toMatch(
      /the task has no API key: anyone who finds the endpoint can claim/,
    );
  });

  it('warns on what the platform never sends, and fails it only with --strict', async () => {
    // A POST-only route, as a Next.js App Router route that exports only POST: 405 to a GET.
    const postOnly: RequestListener = (req, res) => {
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST' });
        res.end();
        return;
      }
      endpoint()(req, res);
    };
    const url = await listen(postOnly);
    const run = await questkit(['check', url, '--api-key', KEY, ...FAST]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/WARN\s+\S+ ms\s+http\.method-get/);
    expect(run.stdout).toContain(
      'Platform checks: response_time PASS  message_format PASS  status_code PASS',
    );
    expect(run.stdout).toContain('Tiers: platform PASS  members PASS  hardening WARN');
    expect(run.stdout).toContain('repro curl');

    const strict = await questkit(['check', url, '--api-key', KEY, '--strict', '--json', ...FAST]);
    expect(strict.code).toBe(1);
    const report = JSON.parse(strict.stdout);
    expect(report.summary.verdict).toBe('fail');
    expect(report.strict).toBe(true);
    expect(report.summary.tiers).toEqual({ platform: 'pass', members: 'pass', hardening: 'fail' });
  });

  it('says once that every request got 404, and blames no key', async () => {
    const notFound: RequestListener = (_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>Not Found</h1>');
    };
    const url = await listen(notFound);
    const run = await questkit([
      'check',
      url.replace('/verify', '/verfy'),
      '--api-key',
      KEY,
      ...FAST,
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout.split('\n')[2]).toBe(
      'Every request got 404: nothing answers at /verfy. Is the path right?',
    );
    expect(run.stdout).not.toMatch(/refuses the key|same answer as a wrong/);
    expect(run.stdout).toMatch(
      /NOT JUDGED\s+\S+ ms\s+member\.api-key .*no 200 or 400 answer to compare/,
    );
    expect(run.stdout).toMatch(/\d+ more checks got the same answer: see the line at the top\./);
    expect(run.stdout.split('\n').length).toBeLessThan(90);
  });

  it.each([
    ['check'],
    ['mock'],
    [],
  ])('prints the version with --version after %j', async (...command) => {
    const run = await questkit([...command, '--version']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^questkit \d+\.\d+\.\d+/);
  });
});
