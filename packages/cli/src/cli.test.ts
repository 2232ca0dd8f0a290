import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

// The built binary, as a user runs it (`pnpm build` runs before the tests), launched a few times
// for what only a real process shows: its exit code, its pipes (not a terminal: no colors), its
// environment and a real file. The flags and the output are tested in process (check.test.ts,
// main.test.ts); what the battery decides of an endpoint, in packages/conformance.
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const KEY = 'cli-test-key-7d2e';
// The platform's 10 s limit: these endpoints answer at once, so a busy machine changes no verdict.
const FAST = ['--timeout', '10000', '--burst', '2', '--samples', '2'];

// A start of Node takes seconds on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

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
      { env: { ...clean, ...env }, timeout: 50_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

// A small endpoint that checks the key; `badKeyStatus` makes it answer 401 to a wrong one.
function endpoint(badKeyStatus = 400): RequestListener {
  return (req, res) => {
    req.resume();
    req.on('end', () => {
      const ok = req.method === 'POST' && req.headers['x-api-key'] === KEY;
      res.writeHead(ok ? 200 : req.method === 'POST' ? badKeyStatus : 400, {
        'content-type': 'application/json',
      });
      res.end(JSON.stringify({ message: ok ? 'Verified.' : 'Not verified.' }));
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

  it('prints its package version with --version', async () => {
    const { version } = JSON.parse(
      await readFile(new URL('../package.json', import.meta.url), 'utf8'),
    );
    const run = await questkit(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`questkit ${version}\n`);
  });

  it('exits 2 on an unknown command and on a usage error, with no stack trace', async () => {
    const unknown = await questkit(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "frobnicate"/);
    noStackTrace(unknown);
    const usage = await questkit(['check', 'http://127.0.0.1:9/verify', '--timeout', 'soon']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--timeout must be a positive integer/);
    expect(usage.stdout).toBe('');
    noStackTrace(usage);
  });

  it('exits 0 for an endpoint that passes, in plain text on pipes', async () => {
    const url = await listen(endpoint());
    const run = await questkit(['check', url, '--api-key', KEY, '--only', 'claim', ...FAST]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^Warning: --api-key on the command line [^\n]*\n/);
    expect(run.stderr.replace(/^Warning: [^\n]*\n/, '')).toBe(
      `questkit check: 4 checks against ${url}\n`,
    );
    expect(run.stdout).toMatch(/PASSED: /);
    expect(`${run.stdout}${run.stderr}`).not.toContain('\u001b');
  });

  it('exits 1 when a check fails, reads QUEST_API_KEY, writes --junit, and never prints the key', async () => {
    const url = await listen(endpoint(401));
    const file = join(dir, 'conformance.xml');
    const run = await questkit(
      ['check', url, '--json', '--junit', file, '--only', 'auth.', ...FAST],
      {
        QUEST_API_KEY: KEY,
      },
    );
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).summary).toMatchObject({ ok: false });
    const xml = await readFile(file, 'utf8');
    expect(xml).toMatch(/<testsuites name="questkit conformance" [^>]*failures="2"/);
    expect(`${run.stdout}${run.stderr}${xml}`).not.toContain(KEY);
  });
});
