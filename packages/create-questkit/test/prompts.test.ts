import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

// The prompts as a person meets them: the built binary in a pseudo-terminal (util-linux `script`),
// keys typed once each question is on the screen. Run after the build (`pnpm test` builds first).

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const ESC = '\u001b';
const DOWN = `${ESC}[B`;

let work: string;
let child: ChildProcess | undefined;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'create-questkit-pty-'));
});
afterEach(() => {
  if (child?.exitCode === null) child.kill('SIGKILL');
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** The generator in a pseudo-terminal of 100 columns: what it shows, keys to type, its exit. */
function inTerminal(args: string[]) {
  const command = [process.execPath, CLI, ...args].map((part) => `'${part}'`).join(' ');
  child = spawn(
    'script',
    ['-q', '-f', '-e', '-c', `stty cols 100 rows 40; exec ${command}`, '/dev/null'],
    {
      cwd: work,
      env: { ...process.env, TERM: 'xterm-256color' },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  const running = child;
  let screen = '';
  running.stdout!.on('data', (chunk: Buffer) => {
    // Without colours and cursor moves: the text as read on the screen.
    screen += chunk.toString().replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
  });
  const exited = new Promise<number | null>((resolve) => running.once('exit', resolve));
  return {
    /** Waits (at most 20 s) until `text` shows, then types `keys`. */
    async answer(text: string, keys: string) {
      for (let waited = 0; !screen.includes(text); waited += 50) {
        if (waited > 20_000) throw new Error(`"${text}" never showed:\n${screen}`);
        if (running.exitCode !== null) throw new Error(`exited before "${text}":\n${screen}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      screen = screen.slice(screen.indexOf(text) + text.length);
      running.stdin!.write(keys);
    },
    exited,
    screen: () => screen,
  };
}

describe.runIf(existsSync('/usr/bin/script') || existsSync('/bin/script'))(
  'the prompts, in a pseudo-terminal',
  () => {
    it('asks each question a flag would answer, and writes the project picked', async () => {
      const terminal = inTerminal([]);
      await terminal.answer('Where should the project go?', 'pty-app\r');
      await terminal.answer('Which framework?', `${DOWN}${DOWN}\r`); // express, fastify, hono
      await terminal.answer('Add the identity-connect flow', 'y');
      // svc-connect is ticked already with connect; space ticks the first, email.
      await terminal.answer('Which accounts must every claim carry', ' \r');
      await terminal.answer('Add the webhook receiver', 'n');
      expect(await terminal.exited).toBe(0);
      expect(terminal.screen()).toMatch(/Wrote \d+ files of a Hono \(Node\) project in pty-app/);
      const dir = join(work, 'pty-app');
      const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
      expect(manifest.name).toBe('pty-app');
      expect(Object.keys(manifest.dependencies)).toContain('@questkit/hono');
      expect(await readFile(join(dir, 'src/quest.ts'), 'utf8')).toContain(
        "REQUIRES = ['email', 'svc-connect'] as const",
      );
      const files = await readdir(join(dir, 'test'));
      expect(files).toContain('connect.test.ts');
      expect(files).not.toContain('webhooks.test.ts');
    }, 60_000);

    it('asks only what the flags leave open', async () => {
      const terminal = inTerminal([
        'flagged-app',
        '--framework',
        'express',
        '--requires',
        'discord',
        '--connect',
      ]);
      await terminal.answer('Add the webhook receiver', 'y');
      expect(await terminal.exited).toBe(0);
      expect(terminal.screen()).not.toContain('Which framework?');
      expect(await readFile(join(work, 'flagged-app/src/quest.ts'), 'utf8')).toContain(
        "REQUIRES = ['discord'] as const",
      );
      expect(await readdir(join(work, 'flagged-app/test'))).toContain('webhooks.test.ts');
    }, 60_000);

    it('writes nothing when cancelled with Ctrl-C', async () => {
      const terminal = inTerminal(['cancelled-app']);
      await terminal.answer('Which framework?', '\u0003');
      expect(await terminal.exited).toBe(1);
      expect(terminal.screen()).toContain('Cancelled: nothing was written.');
      expect(existsSync(join(work, 'cancelled-app'))).toBe(false);
    }, 60_000);
  },
);
