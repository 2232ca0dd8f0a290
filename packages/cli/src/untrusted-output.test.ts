import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// What an endpoint sends back is the attacker's: the built binary, against an endpoint that echoes
// the request (the task key included) with control, bidi, invisible and tag characters in its
// redirect and its message, must print none of them raw and never the key, in any output.
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const KEY = 'untrusted-output-key-51f3';
const FAST = ['--timeout', '10000', '--burst', '2', '--samples', '2'];
vi.setConfig({ testTimeout: 60_000 });

// C0, C1 (NEL, CSI, OSC), bidi override, zero-width space, tag characters.
const ACTING = '\u001b[31m\u0007\u0085\u009b2K\u009d0;t\u202eDESSAP\u200bzw\u{e0041}';
// A header carries Latin-1 only: the C1 controls.
const IN_HEADER = '\u0085\u009b2K\u009d0;t';
const RAW =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\u{e0000}-\u{e007f}]/u;

let server: Server;
let url = '';
let dir = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const key = String(req.headers['x-api-key'] ?? '');
      res.writeHead(302, {
        location: `https://login.example/${IN_HEADER}PASSED?key=${encodeURIComponent(key)}`,
        'content-type': 'application/json',
      });
      res.end(JSON.stringify({ message: `echo ${key} ${ACTING}`, headers: req.headers }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/verify`;
  dir = await mkdtemp(join(tmpdir(), 'questkit-untrusted-'));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

/** Runs the binary; `head` closes its stdout after the first chunk, as `| head` does. */
function questkit(
  args: string[],
  head = false,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (head) child.stdout.destroy();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('questkit check against an echoing endpoint that sends control characters', () => {
  it('prints neither the key nor a raw control in the human report, --json or --junit', async () => {
    const junit = join(dir, 'report.xml');
    const human = await questkit(['check', url, '--api-key', KEY, '--junit', junit, ...FAST]);
    const json = await questkit(['check', url, '--api-key', KEY, '--json', ...FAST]);
    const xml = await readFile(junit, 'utf8');
    expect(human.code).toBe(1);
    expect(json.code).toBe(1);
    for (const output of [human.stdout, json.stdout, xml]) {
      expect(output).not.toContain(KEY);
      expect(output).not.toMatch(RAW);
      expect(output).toContain('REDACTED');
    }
    // The headline is escaped too: no forged line can follow it.
    expect(human.stdout.split('\n')[2]).toMatch(
      /^Every claim got 302, a redirect to https:\/\/login\.example\/\\u0085\\u009b2K\\u009d0;tPASSED\?key=REDACTED:/,
    );
    expect(human.stdout).toContain('\\u202eDESSAP\\u200bzw\\u{e0041}');
    // The JSON reads back to the endpoint's words, the key redacted.
    const report = JSON.parse(json.stdout);
    expect(report.summary.claim.message).toBe(`echo REDACTED ${ACTING}`);
    expect(xml).toContain('\\u009b2K');
  });

  it('shows the key with --show-secrets', async () => {
    const run = await questkit([
      'check',
      url,
      '--api-key',
      KEY,
      '--show-secrets',
      '--json',
      '--only',
      'claim',
      ...FAST,
    ]);
    expect(JSON.parse(run.stdout).summary.claim.message).toContain(KEY);
  });

  it('ends quietly when its reader goes away (--json | head)', async () => {
    const run = await questkit(['check', url, '--api-key', KEY, '--json', ...FAST], true);
    expect(run.stderr).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
    // The verdict's exit code, not a crash's.
    expect(run.code).toBe(1);
  });
});
