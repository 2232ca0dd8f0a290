import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Framework } from '../src/options.js';

// A newcomer's path, read from the READMEs and nothing else, for each framework: the root
// README's "Try it from source" lines as written (the starter run from the packed tarballs, then
// `cd my-app && npm install && npm test`), then the generated README's "Run it" and "Test it":
// `cp .env.example .env` filled in, `npm run dev`, and `npm run check` against it. The clone and
// `pack:all` are the packages this run built, packed into `questkit/packed` beside each project.

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const KEY = 'readme-test-key-7c41d9';
const FRAMEWORKS: Framework[] = ['express', 'fastify', 'hono', 'workers', 'nextjs'];
// Where `npm run dev` listens and `npm run check` looks, as each generated README has them.
const DEV_ORIGIN: Record<Framework, string> = {
  express: 'http://127.0.0.1:4010',
  fastify: 'http://127.0.0.1:4010',
  hono: 'http://127.0.0.1:4010',
  nextjs: 'http://127.0.0.1:3000',
  workers: 'http://127.0.0.1:8787',
};

let work: string;
let generatorLines: string[];
const timings: string[] = [];
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** The sh lines of the root README's block after `marker`. */
async function readmeLines(marker: string): Promise<string[]> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf(marker)))?.[1] ?? '';
  return block.split('\n').filter((line) => line.trim() !== '');
}

/** A line run by sh in `cwd`, as a reader pastes it; rejects with its output when it fails. */
async function shell(line: string, cwd: string) {
  return run('sh', ['-c', line], {
    cwd,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', NEXT_TELEMETRY_DISABLED: '1' },
    timeout: 900_000,
    maxBuffer: 32 * 1024 * 1024,
  }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`${line}\nfailed:\n${error.stdout ?? ''}\n${error.stderr ?? error.message}`);
  });
}

const listening = (origin: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(origin);
    const socket = createConnection({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'create-questkit-readme-'));
  // `pnpm pack:all`; `pnpm test` has just built every package, so their `prepack` build is skipped.
  await run(
    process.execPath,
    [join(ROOT, 'scripts/pack-all.mjs'), '--skip-build', join(work, 'packed')],
    { cwd: ROOT, timeout: 120_000 },
  );
  generatorLines = await readmeLines('<!-- generator-from-source -->');
  expect(generatorLines).toHaveLength(2);
  expect(generatorLines[1]).toBe('cd my-app && npm install && npm test');
}, 180_000);

afterAll(async () => {
  if (timings.length > 0) console.log(`README path:\n${timings.join('\n')}`);
  if (work) await rm(work, { recursive: true, force: true });
});

describe('from the root README to a judged project', () => {
  // Each framework in a folder of its own holding `questkit/packed`, as the clone would; the
  // installs and tests run side by side (maxConcurrency), `npm run dev` one at a time below.
  const installed = new Map<Framework, Promise<string>>();
  const install = (framework: Framework) => {
    const parent = join(work, framework);
    const done = (async () => {
      await mkdir(join(parent, 'questkit'), { recursive: true });
      await symlink(join(work, 'packed'), join(parent, 'questkit', 'packed'));
      const since = performance.now();
      // The README's line, with the flags it says the starter takes after `my-app`.
      await shell(`${generatorLines[0]} --framework ${framework} --yes`, parent);
      const generated = seconds(since);
      const tested = await shell(generatorLines[1]!, parent);
      expect(tested.stdout).toMatch(/Test Files\s+1 passed/);
      timings.push(
        `  ${framework}: generated in ${generated}, installed and tested in ${seconds(since)}`,
      );
      return join(parent, 'my-app');
    })();
    installed.set(framework, done);
    return done;
  };

  it.concurrent.each(
    FRAMEWORKS,
  )('%s: the starter line, then cd my-app && npm install && npm test', async (framework) => {
    await install(framework);
  }, 900_000);

  // One at a time: the generated READMEs give each framework its fixed port.
  it.each(
    FRAMEWORKS,
  )('%s: .env filled in, npm run dev, and npm run check passes', async (framework) => {
    const dir = await (installed.get(framework) ?? install(framework));
    const origin = DEV_ORIGIN[framework];
    expect(await listening(origin), `${origin} is taken by another program`).toBe(false);
    // `cp .env.example .env`, then fill it in: every empty value gets one.
    const example = await readFile(join(dir, '.env.example'), 'utf8');
    const filled = example.replace(/^([A-Z_]+)=$/gm, (_, name: string) =>
      name === 'QUEST_API_KEY' ? `${name}=${KEY}` : `${name}=readme-test-value-${name}`,
    );
    await writeFile(join(dir, '.env'), filled);
    const dev: ChildProcess = spawn('npm', ['run', 'dev'], {
      cwd: dir,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: npm starts the server as a grandchild, which must stop with it.
      detached: true,
    });
    let output = '';
    for (const stream of [dev.stdout, dev.stderr]) {
      stream?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
    }
    try {
      const since = performance.now();
      // Bounded: 180 s for the dev server (wrangler and next dev compile first).
      for (let i = 0; !(await listening(origin)); i++) {
        if (dev.exitCode !== null) throw new Error(`npm run dev exited: ${output}`);
        if (i >= 1800) throw new Error(`npm run dev did not listen within 180 s: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const check = await run('npm', ['run', 'check'], {
        cwd: dir,
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
        timeout: 300_000,
      }).then(
        (done) => ({ code: 0, ...done }),
        (error: { code?: number; stdout?: string; stderr?: string }) => ({
          code: error.code ?? -1,
          stdout: error.stdout ?? '',
          stderr: error.stderr ?? '',
        }),
      );
      expect(check.stdout, `${check.stderr}\n${output}`).toMatch(
        /PASSED: the platform's checks and your members' claims will go through/,
      );
      expect(check.code).toBe(0);
      expect(output + check.stdout).not.toContain(KEY);
      timings.push(`  ${framework}: npm run dev and npm run check in ${seconds(since)}`);
    } finally {
      try {
        process.kill(-dev.pid!, 'SIGTERM');
      } catch {
        // Already gone.
      }
      // Bounded: the port is free again before the next framework's dev server takes it.
      for (let i = 0; i < 100 && (await listening(origin)); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }, 600_000);
});
