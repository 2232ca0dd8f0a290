import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/** What differs from one example to the next in the `pnpm start` test. */
export interface StartTest {
  /** The example's folder, as a URL: `new URL('..', import.meta.url)` from its `src/`. */
  packageDir: URL;
  /** The package name its error lines start with: `@questkit/example-express`. */
  packageName: string;
  /** The environment variable that sets the quest the claim names (`NEWSLETTER_QUEST_ID`). */
  questIdVariable: string;
  /** The member's accounts the quest needs to pass. */
  accounts: Record<string, unknown>;
}

/**
 * `pnpm start` of an example, as a user runs it: `src/main.ts` in a child process, its URL
 * printed, a claim answered with the configured key, a clean stop on SIGTERM, and a bad `PORT`
 * refused with one line.
 */
export function describeStart(test: StartTest): void {
  const packageDir = fileURLToPath(test.packageDir);
  const questId = 'quest-main-test';
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child?.exitCode === null) child.kill('SIGKILL');
  });

  /** Starts `src/main.ts` as `pnpm start` does, and waits (bounded) for the line naming the endpoint. */
  function start(
    env: Record<string, string>,
  ): Promise<{ verifyUrl: string; output: () => string }> {
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

  // Each test starts tsx in a child process, waited for 15 s at the most: on a loaded machine
  // that takes longer than vitest's default 5 s.
  describe('pnpm start', { timeout: 20_000 }, () => {
    it('prints its URL, answers claims with the configured key, and stops on SIGTERM', async () => {
      const { verifyUrl, output } = await start({
        QUEST_API_KEY: 'main-test-key',
        PORT: '0',
        [test.questIdVariable]: questId,
      });
      expect(verifyUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/verify$/);
      const reply = await fetch(verifyUrl, {
        method: 'POST',
        headers: { 'x-api-key': 'main-test-key' },
        body: JSON.stringify({
          userId: 'u',
          communityId: 'c',
          subdomain: 'demo',
          questId,
          requestId: 'r',
          accounts: test.accounts,
        }),
      });
      expect(reply.status).toBe(200);
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child!.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(output()).toContain(`200 ok quest=${questId}`);
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
      expect(stderr.trim()).toBe(`[${test.packageName}] PORT must be a port number, not "http"`);
    });
  });
}
