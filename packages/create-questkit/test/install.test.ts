import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectFiles } from '../src/generate.js';
import type { Framework, ProjectOptions } from '../src/options.js';

// `npm create questkit` as a user runs it: the generator run from its packed tarball, each project
// written into a folder outside the repository with --packages (file: specs of this repository's
// packed packages) and installed with npm, then its own type check and `npm test`; the projects
// with --connect --webhooks are also started as they ship and judged by their own `npm run check`
// and `npm run check:webhook`. The installs are slow, so every
// project is a member of one npm workspace and one `npm install` resolves each package.json as
// generated (a dependency a project uses but does not declare is caught by run.test.ts, which
// compares every project's imports with its package.json). Next.js builds once, with both options.

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const KEY = 'install-test-key-5e0c2b';
const SECRETS = {
  QUEST_API_KEY: KEY,
  CONNECT_SECRET: 'install-test-connect-secret',
  SESSION_SECRET: 'install-test-session-secret-0123456789',
  WEBHOOK_SECRET: 'whsec_install_test',
};

let work: string;
let generator: string[];
const timings: string[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'create-questkit-install-'));
  const packed = join(work, 'tarballs');
  // `pnpm pack:all`; `pnpm test` has just built every package, so their `prepack` build is skipped.
  await run(process.execPath, [join(ROOT, 'scripts/pack-all.mjs'), '--skip-build', packed], {
    cwd: ROOT,
    timeout: 120_000,
  });
  const files = await readdir(packed);
  // The generator and the one package it runs with (@questkit/core), until both are published.
  generator = ['create-questkit-', 'questkit-core-'].map(
    (prefix) => `--package=${join(packed, files.find((file) => file.startsWith(prefix))!)}`,
  );
}, 180_000);

afterAll(async () => {
  if (timings.length > 0) console.log(`create-questkit projects:\n${timings.join('\n')}`);
  if (work) await rm(work, { recursive: true, force: true });
});

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** `npm create questkit@latest <name> -- <flags>`, with the packed generator in place of the registry's. */
async function create(name: string, flags: string[]) {
  return run('npm', ['exec', '--yes', ...generator, '--', 'create-questkit', name, ...flags], {
    cwd: work,
    timeout: 120_000,
  });
}

/** `npm run <script>` in the project; rejects with its output when it fails. */
async function npmRun(dir: string, script: string, env: Record<string, string> = {}) {
  return run('npm', ['run', script], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
    timeout: 480_000,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(
      `npm run ${script} failed:\n${error.stdout ?? ''}\n${error.stderr ?? error.message}`,
    );
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The files of the folder, as the project lists them: without what npm, builds and tests add. */
async function listFiles(dir: string): Promise<string[]> {
  const skip = new Set([
    'node_modules',
    'dist',
    '.next',
    '.wrangler',
    'package-lock.json',
    'next-env.d.ts',
  ]);
  const found: string[] = [];
  const walk = async (at: string) => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      if (skip.has(entry.name)) continue;
      if (entry.isDirectory()) await walk(join(at, entry.name));
      else found.push(relative(dir, join(at, entry.name)).split('\\').join('/'));
    }
  };
  await walk(dir);
  return found.sort();
}

/**
 * Starts the project as it ships (`npm start`, or `npm run start:node` for the Worker) on a free
 * loopback port, and runs the project's own `npm run check` (and `check:webhook`) against it.
 */
async function startAndCheck(dir: string, options: ProjectOptions): Promise<string> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    'npm',
    ['run', options.framework === 'workers' ? 'start:node' : 'start'],
    {
      cwd: dir,
      env: {
        ...process.env,
        ...SECRETS,
        PORT: String(port),
        PUBLIC_URL: origin,
        NEXT_TELEMETRY_DISABLED: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: npm starts the server as a grandchild, which must stop with it.
      detached: true,
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  try {
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`the app exited: ${output}`);
      if (
        await fetch(origin).then(
          () => true,
          () => false,
        )
      )
        break;
      if (i >= 600) throw new Error(`the app did not answer on ${origin} within 60 s: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // The project's own `npm run check` (and `check:webhook`): keys from its .env.
    await writeFile(
      join(dir, '.env'),
      Object.entries(SECRETS)
        .map(([name, value]) => `${name}=${value}`)
        .join('\n'),
    );
    const npmCheck = (script: string) =>
      run('npm', ['run', script], {
        cwd: dir,
        env: { ...process.env, CHECK_ORIGIN: origin, NO_COLOR: '1' },
        timeout: 120_000,
      }).then(
        (done) => ({ code: 0, ...done }),
        (error: { code?: number; stdout?: string; stderr?: string }) => ({
          code: error.code ?? -1,
          stdout: error.stdout ?? '',
          stderr: error.stderr ?? '',
        }),
      );
    if (options.webhooks) {
      const webhook = await npmCheck('check:webhook');
      expect(webhook.stdout).toMatch(/PASSED: the platform's deliveries will succeed/);
      expect(webhook.code).toBe(0);
    }
    const check = await npmCheck('check');
    expect(check.stderr).not.toMatch(/\] FAIL /);
    // With --connect the judge stops at the app's login (it cannot log in), so it promises the
    // platform's checks and names what it did not judge; without it, the members' side too.
    expect(check.stdout).toMatch(
      options.connect
        ? /PASSED: the platform's checks will go through\. Your members' side is not promised: connect\.callback was not judged/
        : /PASSED: the platform's checks and your members' claims will go through/,
    );
    expect(check.code).toBe(0);
    expect(output).not.toContain(KEY);
    expect(check.stdout).not.toContain(KEY);
    return check.stdout;
  } finally {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
}

const FRAMEWORKS_TESTED: Framework[] = ['express', 'fastify', 'hono', 'workers', 'nextjs'];
const plain = (framework: Framework): ProjectOptions => ({
  name: `plain-${framework}`,
  framework,
  requires: ['email'],
  connect: false,
  webhooks: false,
});
const full = (framework: Framework): ProjectOptions => ({
  name: `full-${framework}`,
  framework,
  requires: ['svc-connect'],
  connect: true,
  webhooks: true,
});
// next build takes a minute or more: the Next.js project is generated with both options only.
const PROJECTS = [
  ...FRAMEWORKS_TESTED.filter((framework) => framework !== 'nextjs').map(plain),
  ...FRAMEWORKS_TESTED.map(full),
];

describe('npm create questkit, each project installed with npm', () => {
  beforeAll(async () => {
    const generate = async (options: ProjectOptions) => {
      const flags = ['--framework', options.framework];
      if (options.connect) flags.push('--connect', '--webhooks');
      // --packages: the @questkit dependencies from the tarballs packed above (file: specs).
      await create(options.name, [...flags, '--packages', 'tarballs']);
      expect(await listFiles(join(work, options.name))).toEqual(
        Object.keys(projectFiles(options)).sort(),
      );
    };
    // The first run puts the generator in npm's cache; the others find it there, side by side.
    const [first, ...others] = PROJECTS;
    await generate(first!);
    await Promise.all(others.map(generate));
    await writeFile(
      join(work, 'package.json'),
      JSON.stringify({ private: true, workspaces: PROJECTS.map((options) => options.name) }),
    );
    const since = performance.now();
    // npm's cached package metadata is used as it is (a machine without it fetches it): asking the
    // registry again about every package took most of the install's time.
    await run(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'],
      {
        cwd: work,
        timeout: 600_000,
      },
    );
    timings.push(`  one npm install of the ${PROJECTS.length} projects: ${seconds(since)}`);
  }, 900_000);

  /** The project's own type check and `npm test`, as generated. */
  async function typecheckAndTest(options: ProjectOptions): Promise<void> {
    const dir = join(work, options.name);
    await npmRun(dir, 'typecheck');
    const since = performance.now();
    const tested = await npmRun(dir, 'test');
    // With both options: endpoint, connect, login and webhooks.
    expect(tested.stdout).toMatch(new RegExp(`Test Files\\s+${options.connect ? 4 : 1} passed`));
    timings.push(
      `  ${options.name}: ${Object.keys(projectFiles(options)).length} files, npm test ${seconds(since)}`,
    );
  }

  // The projects are folders of their own with ports of their own: they run side by side (the
  // project's maxConcurrency bounds how many), Next.js first, its build being the longest.
  it.concurrent.each(
    PROJECTS.filter((options) => options.connect).reverse(),
  )('$name: passes its type check and its tests as generated, and questkit check (connect included) as it ships', async (options) => {
    await typecheckAndTest(options);
    const dir = join(work, options.name);
    // Next.js: the build its test made is the one started.
    if (options.framework !== 'workers' && options.framework !== 'nextjs') {
      await npmRun(dir, 'build');
    }
    await startAndCheck(dir, options);
  }, 900_000);

  it.concurrent.each(PROJECTS.filter((options) => !options.connect))(
    '$name: passes its type check and its tests as generated',
    typecheckAndTest,
    600_000,
  );
});
