import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

/** Starts `questkit mock` on a free port and resolves with its base URL and the process. */
function startMock(args: string[]) {
  const child = spawn(process.execPath, [CLI, 'mock', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within 20 s:\n${output}`)), 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
  const stopped = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, url, stopped, output: () => output };
}

describe('questkit mock', () => {
  it('serves the mock platform until SIGINT, then exits 0', async () => {
    const mock = startMock(['--api-key', 'cli-mock-key-123', '--seed', '10']);
    try {
      const url = await mock.url;
      const community = await fetch(`${url}/public/communities/demo`, {
        headers: { 'x-api-key': 'cli-mock-key-123' },
      });
      expect(community.status).toBe(200);
      expect(await community.json()).toMatchObject({ subdomain: 'demo' });
      expect(mock.output()).not.toContain('cli-mock-key-123');
    } finally {
      mock.child.kill('SIGINT');
    }
    expect(await mock.stopped).toBe(0);
  });

  it('prints its own help and exits 0, and exits 2 on a bad flag', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, [CLI, 'mock', ...args]);
        let out = '';
        const collect = (chunk: Buffer) => {
          out += chunk.toString('utf8');
        };
        child.stdout.on('data', collect);
        child.stderr.on('data', collect);
        child.on('exit', (code) => resolve({ code, out }));
      });
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/--port/);
    expect(help.out).toMatch(/QUESTKIT_MOCK_PORT/);
    const bad = await run(['--no-such-flag']);
    expect(bad.code).toBe(2);
    expect(bad.out).not.toMatch(/\n\s+at /);
    // Errors in the flags' own names, never the library's options (baseUrl), and exit 2.
    const url = await run(['--public-url', 'notaurl']);
    expect(url.code).toBe(2);
    expect(url.out).toMatch(/^questkit mock: --public-url must be an absolute http/);
    expect(url.out).not.toContain('baseUrl');
    const clock = await run(['--clock', '2025-06-01T12:00:00']);
    expect(clock.code).toBe(2);
    expect(clock.out).toContain('add Z for UTC or an offset');
  }, 60_000);
});
