import { readFile } from 'node:fs/promises';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CHECK_FLAGS } from './commands/check.js';
import { COMMANDS } from './commands/index.js';
import { type FakeIo, type FakeIoOptions, fakeIo } from './fake-io.testkit.js';
import { main } from './main.js';

// `questkit check`'s flags, output and exit codes, in process: the command's own code, with real
// endpoints on loopback. What the battery decides of an endpoint is conformance's to test
// (packages/conformance); these runs keep to a few checks (`--only`). cli.test.ts launches the
// built binary a few times for what only a real process shows.

const KEY = 'cli-test-key-7d2e';
// The platform's 10 s limit: these endpoints answer at once, so a busy machine changes no verdict.
const FAST = ['--timeout', '10000', '--burst', '2', '--samples', '2'];

async function questkit(args: string[], options: FakeIoOptions = {}) {
  const io = fakeIo(options);
  const code = await main(args, io, COMMANDS, '1.2.3');
  return { code, io, stdout: io.out.join(''), stderr: io.err.join('') };
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
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (typeof body?.userId !== 'string') return answer(400, 'Missing userId.');
      } catch {
        return answer(400, 'Not JSON.');
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

const noStackTrace = (io: FakeIo) =>
  expect(`${io.out.join('')}${io.err.join('')}`).not.toMatch(/\n\s+at .+:\d+:\d+/);

describe('questkit check: flags', () => {
  it('documents every flag with its environment twin in --help, and exits 0', async () => {
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
    noStackTrace(run.io);
  });

  it('reads flags from their environment twins and reports a bad twin by name', async () => {
    const run = await questkit(['check', 'http://127.0.0.1:9/verify'], {
      env: { QUESTKIT_SAMPLES: 'many' },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/QUESTKIT_SAMPLES must be a positive integer/);
  });

  it.each([
    ['check'],
    ['mock'],
    [],
  ])('prints the version with --version after %j', async (...command) => {
    const run = await questkit([...command, '--version']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('questkit 1.2.3\n');
  });
});

describe('questkit check: output and exit codes', () => {
  it('exits 1 with a clear message for an unreachable URL, in text and in --json', async () => {
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
    expect(run.stdout).toContain(
      'Platform checks: response_time NOT JUDGED  message_format NOT JUDGED  status_code NOT JUDGED',
    );
    noStackTrace(run.io);

    const json = await questkit(['check', `http://127.0.0.1:${port}/verify`, '--json', ...FAST]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).unreachable).toMatch(/ECONNREFUSED/);
    expect(json.stderr).toMatch(
      /cannot reach http:\/\/127\.0\.0\.1:\d+\/verify: connection refused/,
    );
  });

  it('exits 0 for an endpoint that passes, each check listed once when not a terminal', async () => {
    const url = await listen(endpoint());
    const only = ['--only', 'claim,body.'];
    const run = await questkit(['check', url, '--api-key', KEY, '--expect-pass', ...only, ...FAST]);
    expect(run.code).toBe(0);
    // One line says the run started; the count is the summary's.
    // The key in argv gets its warning first (ps and shell history can read it).
    expect(run.stderr).toMatch(/^Warning: --api-key on the command line [^\n]*\n/);
    expect(run.stderr.replace(/^Warning: [^\n]*\n/, '')).toBe(
      `questkit check: 7 checks against ${url}\n`,
    );
    expect(run.stdout).toMatch(/7 checks: 6 passed, 0 warned, 0 failed, 1 skipped/);
    // No drifted key was sent, so the key is not judged: PASSED promises the platform only.
    expect(run.stdout).toMatch(
      /^PASSED: the platform's checks will go through\. Your members' side is not promised: member\.api-key was not judged/m,
    );
    // A passing check is counted, not listed; --verbose lists every check once, by tier.
    expect(run.stdout).not.toContain('claim.well-formed');
    const verbose = await questkit(['check', url, '--api-key', KEY, ...only, ...FAST, '--verbose']);
    expect(verbose.stdout.match(/claim\.well-formed/g)).toHaveLength(1);
    expect(run.stdout).toMatch(/PASSED: /);
    // Not a terminal: no colors, no progress line redrawn.
    expect(`${run.stdout}${run.stderr}`).not.toContain('\u001b');
  });

  it('exits 1 when a check fails, takes the key from QUEST_API_KEY and never prints it', async () => {
    const url = await listen(endpoint(401));
    const json = await questkit(['check', url, '--json', '--only', 'auth.', ...FAST], {
      env: { QUEST_API_KEY: KEY },
    });
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(report.summary).toMatchObject({ ok: false });
    expect(json.stdout).not.toContain(KEY);

    const human = await questkit(['check', url, ...FAST], {
      env: { QUEST_API_KEY: KEY, QUESTKIT_ONLY: 'auth.', QUESTKIT_VERBOSE: '1' },
    });
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(
      /FAIL {2}auth\.wrong-key {2}\[platform\].*\n\s+✗ status_code: answered 401/,
    );
    expect(human.stdout).toContain('"x-api-key: $QUEST_API_KEY"');
    expect(`${human.stdout}${human.stderr}`).not.toContain(KEY);
  });

  it('writes a JUnit report with --junit, without the key', async () => {
    const url = await listen(endpoint(401));
    const only = ['--only', 'auth.,body.'];
    const run = await questkit([
      'check',
      url,
      '--api-key',
      KEY,
      '--junit',
      'out.xml',
      ...only,
      ...FAST,
    ]);
    expect(run.code).toBe(1);
    const xml = run.io.files.get('out.xml') ?? '';
    expect(xml).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>/);
    expect(xml).toMatch(
      /<testsuites name="questkit conformance" tests="9" failures="2" errors="0" skipped="0"/,
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
    const missing = Object.assign(new Error('no such directory'), { code: 'ENOENT' });
    const run = await questkit(
      ['check', url, '--api-key', KEY, '--only', 'claim', '--junit', 'missing/x.xml', ...FAST],
      { writeError: missing },
    );
    expect(run.code).toBe(2);
    expect(requests).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/cannot write the JUnit report to missing\/x\.xml \(ENOENT\)/);
    noStackTrace(run.io);
  });

  it('exits 1 without --api-key (not judged), and 0 with --no-api-key', async () => {
    const url = await listen(endpoint());
    const run = await questkit(['check', url, '--only', 'claim,auth.', ...FAST]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /Next: No API key was given.*--api-key <the task key>.*--no-api-key/,
    );
    expect(run.stdout).toMatch(/NOT JUDGED: /);

    const keyless = await questkit(['check', url, '--no-api-key', '--only', 'claim', ...FAST]);
    expect(keyless.code).toBe(0);
  });

  it('exits 0 on a hardening warning, and 1 with --strict', async () => {
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
    const only = ['--only', 'claim,http.method-get'];
    const run = await questkit(['check', url, '--api-key', KEY, ...only, ...FAST]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /WARN {2}http\.method-get {2}\[hardening\] {2}status_code: answered 405/,
    );

    const strict = await questkit([
      'check',
      url,
      '--api-key',
      KEY,
      '--strict',
      '--json',
      ...only,
      ...FAST,
    ]);
    expect(strict.code).toBe(1);
    expect(JSON.parse(strict.stdout)).toMatchObject({ strict: true, summary: { verdict: 'fail' } });
  });
});
