import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectFiles } from '../src/generate.js';
import type { Framework, ProjectOptions } from '../src/options.js';

// `npm create questkit` as a user runs it: the generator run from its packed tarball, each project
// written into a folder outside the repository, installed with npm from this repository's packed
// packages, then its own type check and `npm test`, then started as it ships and judged by
// `questkit check`. One npm install per framework: the project without options first, then the
// same folder regenerated with --connect --webhooks (--force; a superset of its files) and
// installed again (only the mock platform is added). Next.js builds once, with both options.

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PNPM = `pnpm@${JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')).packageManager.split('@')[1]}`;
const KEY = 'install-test-key-5e0c2b';
const SECRETS = {
  QUEST_API_KEY: KEY,
  CONNECT_SECRET: 'install-test-connect-secret',
  SESSION_SECRET: 'install-test-session-secret-0123456789',
  WEBHOOK_SECRET: 'whsec_install_test',
};

let work: string;
let tarballs: Map<string, string>;
const timings: string[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'create-questkit-install-'));
  const packed = join(work, 'tarballs');
  // `pnpm test` has just built every package: the packages' own `prepack` build is skipped here.
  await run(
    'npx',
    [
      '--yes',
      PNPM,
      '-r',
      '--filter',
      './packages/**',
      'pack',
      '--config.ignore-scripts=true',
      '--pack-destination',
      packed,
    ],
    { cwd: ROOT, timeout: 120_000 },
  );
  tarballs = new Map();
  for (const file of await readdir(packed)) {
    // questkit-core-0.1.0.tgz -> @questkit/core; questkit-0.1.0.tgz -> questkit
    const name = file.replace(/-\d+\.\d+\.\d+.*\.tgz$/, '');
    tarballs.set(
      name === 'questkit' || name === 'create-questkit'
        ? name
        : `@questkit/${name.slice('questkit-'.length)}`,
      join(packed, file),
    );
  }
}, 180_000);

afterAll(async () => {
  if (timings.length > 0) console.log(`create-questkit projects:\n${timings.join('\n')}`);
  if (work) await rm(work, { recursive: true, force: true });
});

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** `npm create questkit@latest <name> -- <flags>`, with the packed generator in place of the registry's. */
async function create(name: string, flags: string[]) {
  const generator = tarballs.get('create-questkit')!;
  return run(
    'npm',
    ['exec', '--yes', `--package=${generator}`, '--', 'create-questkit', name, ...flags],
    {
      cwd: work,
      timeout: 120_000,
    },
  );
}

/**
 * The generated package.json with each @questkit package pointed at its packed tarball (the
 * versions are not on a registry yet), then `npm install`. Nothing else in the project changes.
 */
async function install(dir: string): Promise<void> {
  const path = join(dir, 'package.json');
  const manifest = JSON.parse(await readFile(path, 'utf8'));
  for (const field of ['dependencies', 'devDependencies']) {
    for (const name of Object.keys(manifest[field] ?? {})) {
      const tarball = tarballs.get(name);
      if (tarball) manifest[field][name] = `file:${tarball}`;
    }
  }
  await writeFile(path, `${JSON.stringify(manifest, null, 2)}\n`);
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    timeout: 480_000,
  });
}

/** `npm run <script>` in the project; rejects with its output when it fails. */
async function npmRun(dir: string, script: string, env: Record<string, string> = {}) {
  return run('npm', ['run', script], {
    cwd: dir,
    env: { ...process.env, ...env },
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
 * loopback port, and runs the project's own `questkit check` against it.
 */
async function startAndCheck(dir: string, options: ProjectOptions): Promise<string> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const base = options.framework === 'nextjs' ? '/api' : '';
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
    const args = ['check', `${origin}${base}/verify`, '--api-key', KEY];
    if (options.requires.length > 0) args.push('--identifications', options.requires.join(','));
    if (options.connect)
      args.push('--connect-url', `${origin}${base}/connect`, '--secret', SECRETS.CONNECT_SECRET);
    const check = await run(join(dir, 'node_modules/.bin/questkit'), args, {
      cwd: dir,
      timeout: 120_000,
    }).then(
      (done) => ({ code: 0, ...done }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({
        code: error.code ?? -1,
        stdout: error.stdout ?? '',
        stderr: error.stderr ?? '',
      }),
    );
    expect(check.stderr).not.toMatch(/\] FAIL /);
    expect(check.stdout).toMatch(
      /PASSED: the platform's checks and your members' claims will go through/,
    );
    expect(check.code).toBe(0);
    expect(output).not.toContain(KEY);
    return check.stdout;
  } finally {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
}

const PLANS: { framework: Framework; plain: boolean }[] = [
  { framework: 'express', plain: true },
  { framework: 'fastify', plain: true },
  { framework: 'hono', plain: true },
  { framework: 'workers', plain: true },
  // next build takes a minute or more: one project, with both options, built once by its test.
  { framework: 'nextjs', plain: false },
];

describe.each(PLANS)('npm create questkit --framework $framework', ({ framework, plain }) => {
  const name = `my-${framework}-app`;
  const dir = () => join(work, name);
  const full: ProjectOptions = {
    name,
    framework,
    requires: ['svc-connect'],
    connect: true,
    webhooks: true,
  };

  it.runIf(plain)(
    'without options: installs, passes its type check, its tests and questkit check',
    async () => {
      await create(name, ['--framework', framework]);
      const options: ProjectOptions = {
        name,
        framework,
        requires: ['email'],
        connect: false,
        webhooks: false,
      };
      expect(await listFiles(dir())).toEqual(Object.keys(projectFiles(options)).sort());
      let since = performance.now();
      await install(dir());
      const installTime = seconds(since);
      await npmRun(dir(), 'typecheck');
      since = performance.now();
      await npmRun(dir(), 'test');
      const testTime = seconds(since);
      if (framework !== 'workers') await npmRun(dir(), 'build');
      await startAndCheck(dir(), options);
      timings.push(
        `  ${framework}: ${Object.keys(projectFiles(options)).length} files, install ${installTime}, npm test ${testTime}`,
      );
    },
    900_000,
  );

  it('with --connect --webhooks: installs, passes its type check, its tests and questkit check', async () => {
    // Over the project without options when there is one: --force, and the files must be the new set.
    await create(name, [
      '--framework',
      framework,
      '--connect',
      '--webhooks',
      ...(plain ? ['--force'] : []),
    ]);
    expect(await listFiles(dir())).toEqual(Object.keys(projectFiles(full)).sort());
    let since = performance.now();
    await install(dir());
    const installTime = seconds(since);
    await npmRun(dir(), 'typecheck');
    since = performance.now();
    const tested = await npmRun(dir(), 'test');
    const testTime = seconds(since);
    expect(tested.stdout).toMatch(/Test Files\s+3 passed/);
    // Next.js: the test's build is the one started.
    if (framework !== 'workers' && framework !== 'nextjs') await npmRun(dir(), 'build');
    await startAndCheck(dir(), full);
    timings.push(
      `  ${framework} --connect --webhooks: ${Object.keys(projectFiles(full)).length} files, install ${installTime}, npm test ${testTime}`,
    );
  }, 900_000);
});
