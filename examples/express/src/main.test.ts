import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
let child: ChildProcess | undefined;
afterEach(() => {
  if (child?.exitCode === null) child.kill('SIGKILL');
});

/** Starts `src/main.ts` as `pnpm start` does, and waits (bounded) for the line naming the endpoint. */
function start(env: Record<string, string>): Promise<{ verifyUrl: string; output: () => string }> {
  child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: packageDir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed:\n${output}`)), 15_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Verification endpoint: POST (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ verifyUrl: match[1]!, output: () => output });
      }
    };
    child!.stdout!.on('data', read);
    child!.stderr!.on('data', read);
    child!.once('exit', () => reject(new Error(`exited early:\n${output}`)));
  });
}

describe('pnpm start', () => {
  it('prints its URL, answers claims with the configured key, and stops on SIGTERM', async () => {
    const { verifyUrl, output } = await start({
      QUEST_API_KEY: 'main-test-key',
      PORT: '0',
      NEWSLETTER_QUEST_ID: 'quest-news',
    });
    expect(verifyUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/verify$/);
    const reply = await fetch(verifyUrl, {
      method: 'POST',
      headers: { 'x-api-key': 'main-test-key' },
      body: JSON.stringify({
        userId: 'u',
        communityId: 'c',
        subdomain: 'demo',
        questId: 'quest-news',
        requestId: 'r',
        accounts: { email: 'ada@example.com' },
      }),
    });
    expect(reply.status).toBe(200);
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child!.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output()).toContain('200 ok quest=quest-news');
    expect(output()).not.toContain('main-test-key');
  });

  it('refuses a bad PORT with one line and status 1', async () => {
    const run = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: packageDir,
      env: { ...process.env, PORT: 'http' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    run.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise((resolve) => run.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      '[@questkit/example-express] PORT must be a port number, not "http"',
    );
  });
});
