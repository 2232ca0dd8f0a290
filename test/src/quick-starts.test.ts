import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The READMEs' snippets as a newcomer meets them: the packages packed as they would be published,
// installed with npm into fresh `npm init -y` apps outside the repository, each snippet pasted
// into a file and run with node. A README marks a snippet with an HTML comment on the line before
// its fence (invisible on the package page):
//   <!-- snippet: server -->  a whole `server.mjs` (the root README's quick starts, with the
//                             `npm install` line before it): run, then judged by `questkit check`;
//   <!-- snippet: run -->     a whole program: type-checked when TypeScript (strict), then run to
//                             its end against the packed mock platform (`questkit mock`), with
//                             PLATFORM_URL and PLATFORM_API_KEY (the demo community's read-write
//                             key) and QUEST_API_KEY set, and it must exit 0.

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const KEY = 'quick-start-key-5f1c9a';

interface QuickStart {
  title: string;
  install: string[];
  code: string;
}

/** Each ```js block marked `server`, with the `npm install` line before it. */
function quickStarts(readme: string): QuickStart[] {
  const starts: QuickStart[] = [];
  let install: string[] | undefined;
  let title = '';
  const blocks = readme.matchAll(
    /^(?:\*\*(.+)\*\*|(<!-- snippet: server -->\n)?```(\w+)\n([\s\S]*?)^```)/gm,
  );
  for (const [, heading, marked, lang, body] of blocks) {
    if (heading) title = heading;
    const line = body?.split('\n').find((l) => l.startsWith('npm install '));
    if (lang === 'sh' && line) install = line.replace(/#.*/, '').trim().split(/\s+/).slice(2);
    if (marked && lang === 'js' && body?.startsWith('// server.mjs') && install) {
      starts.push({ title, install, code: body });
      install = undefined;
    }
  }
  return starts;
}

// CI runs the quick starts on four Nodes from one build: .ci/run names a folder here, the first run
// packs the packages and installs the apps into it, and the later runs reuse them (packing and
// npm's install do not depend on the Node that runs the app; running it does). Unset, each run
// packs and installs afresh.
const REUSED = process.env.QUESTKIT_QUICK_START_APPS;

let work: string;
let tarballs: Map<string, string>;
let packOutput: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'questkit-quick-starts-'));
  const { dir: packed, done } = reusable('tarballs');
  if (done) {
    packOutput = await readFile(`${packed}.done`, 'utf8');
  } else {
    // `pnpm pack:all`, as the README says; `pnpm test` has just built every package, so the
    // packages' own `prepack` build is skipped here.
    packOutput = (
      await run(process.execPath, [join(ROOT, 'scripts/pack-all.mjs'), '--skip-build', packed], {
        cwd: ROOT,
        timeout: 120_000,
      })
    ).stdout;
    await markDone(packed, packOutput);
  }
  tarballs = new Map();
  for (const file of await readdir(packed)) {
    // questkit-core-0.1.0.tgz -> @questkit/core; questkit-0.1.0.tgz -> questkit (create-questkit too)
    const name = file.replace(/-\d+\.\d+\.\d+.*\.tgz$/, '');
    tarballs.set(
      name.startsWith('questkit-') ? `@questkit/${name.slice('questkit-'.length)}` : name,
      join(packed, file),
    );
  }
}, 180_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** npm arguments for a list of package names: ours from their tarballs, with their own deps. */
function npmArgs(names: readonly string[]): string[] {
  const ours = new Set<string>();
  const add = (name: string) => {
    if (ours.has(name)) return;
    ours.add(name);
    // Published packages depend on core, the CLI on the runner too: npm finds them among the
    // tarballs only when they are named on the same command line.
    if (name !== '@questkit/core') add('@questkit/core');
    if (name === 'questkit') add('@questkit/conformance');
  };
  const others: string[] = [];
  for (const name of names)
    name.startsWith('@questkit/') || name === 'questkit' ? add(name) : others.push(name);
  return [
    ...[...ours].map((name) => {
      const tarball = tarballs.get(name);
      if (!tarball) throw new Error(`no tarball for ${name}`);
      return tarball;
    }),
    ...others,
  ];
}

/** Where the folder `name` lives, and whether an earlier run of this build filled it. */
function reusable(name: string): { dir: string; done: boolean } {
  const dir = join(REUSED ?? work, name);
  return { dir, done: REUSED !== undefined && existsSync(`${dir}.done`) };
}

/** Marks the folder filled, for the later runs of this build (with what its filling printed). */
async function markDone(dir: string, output = ''): Promise<void> {
  if (REUSED !== undefined) await writeFile(`${dir}.done`, output);
}

// npm's cached package metadata is used as it is (a machine without it fetches it): asking the
// registry again about every package took most of an install's time.
const INSTALL_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];

/** `npm init -y` and `npm install` of the packages in a new folder (or the app already installed). */
async function freshApp(name: string, packages: readonly string[]): Promise<string> {
  const { dir, done } = reusable(name);
  if (done) return dir;
  await mkdir(dir, { recursive: true });
  await run('npm', ['init', '-y'], { cwd: dir });
  await run('npm', ['install', ...INSTALL_FLAGS, ...npmArgs(packages)], {
    cwd: dir,
    timeout: 180_000,
  });
  await markDone(dir);
  return dir;
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

/** `node server.mjs` with this environment: the process and what it printed so far. */
function spawnApp(dir: string, env: Record<string, string | undefined>) {
  const child = spawn(process.execPath, ['server.mjs'], {
    cwd: dir,
    env: { ...process.env, QUEST_API_KEY: KEY, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, output: () => output, exited };
}

/** Starts `node server.mjs` and resolves once its port answers and it said so (at most 15 s). */
async function startApp(dir: string, port: number): Promise<ChildProcess> {
  const { child, output } = spawnApp(dir, { PORT: String(port) });
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) throw new Error(`server.mjs exited: ${output()}`);
    const up = await fetch(`http://127.0.0.1:${port}/verify`).then(
      () => true,
      () => false,
    );
    // A quick start says where it listens, the line a newcomer waits for.
    if (up && output().includes(`listening on http://127.0.0.1:${port}/verify`)) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error(`server.mjs did not listen on ${port} and say so: ${output()}`);
}

const README = await readFile(join(ROOT, 'README.md'), 'utf8');
const STARTS = quickStarts(README);

// Each app is its own folder and port, and most of a test waits on npm and child processes: the
// apps install and run side by side (vitest's maxConcurrency bounds how many at once).
describe.concurrent('README quick starts, packed and installed into fresh npm apps', () => {
  it('finds a quick start per framework', () => {
    expect(STARTS.map((start) => start.title)).toEqual(['Express', 'Fastify', 'Hono']);
  });

  it.each(STARTS)('$title: runs as pasted and passes questkit check', async (start) => {
    const dir = await freshApp(start.title.toLowerCase(), [...start.install, 'questkit']);
    // What `npm init -y` wrote is kept: the snippet must run in a CommonJS package too.
    expect(JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')).type).toBe('commonjs');
    await writeFile(join(dir, 'server.mjs'), start.code);
    const port = await freePort();
    const server = await startApp(dir, port);
    try {
      const check = await run(
        join(dir, 'node_modules/.bin/questkit'),
        ['check', `http://127.0.0.1:${port}/verify`, '--api-key', KEY],
        { cwd: dir, timeout: 120_000 },
      ).then(
        (done) => ({ code: 0, ...done }),
        (error: { code?: number; stdout?: string; stderr?: string }) => ({
          code: error.code ?? -1,
          stdout: error.stdout ?? '',
          stderr: error.stderr ?? '',
        }),
      );
      // Outside a terminal, one start line on stderr (each check is listed once, in the report).
      expect(check.stderr).toMatch(
        /^questkit check: \d+ checks against http:\/\/127\.0\.0\.1:\d+\/verify$/m,
      );
      expect(check.stdout).not.toMatch(/^FAIL /m);
      expect(check.stdout).toMatch(
        /PASSED: the platform's checks and your members' claims will go through/,
      );
      expect(check.code).toBe(0);
      // The port taken, or the key unset: one line in the user's terms, no stack trace.
      const busy = spawnApp(dir, { PORT: String(port) });
      expect(await busy.exited).not.toBe(0);
      if (start.title === 'Express') {
        expect(busy.output()).toMatch(
          /^cannot listen on port \d+ \(EADDRINUSE\): start with another PORT/,
        );
        expect(busy.output()).not.toMatch(/\n\s+at /);
      }
      const unset = spawnApp(dir, { PORT: String(port), QUEST_API_KEY: undefined });
      expect(await unset.exited).not.toBe(0);
      expect(unset.output()).toContain('is QUEST_API_KEY (or the variable you read it from) set?');
    } finally {
      server.kill();
    }
  }, 300_000);

  it('installs the CLI without the mock, which it names when asked for it', async () => {
    const dir = await freshApp('cli-only', ['questkit']);
    const installed = await readdir(join(dir, 'node_modules'));
    expect(installed).not.toContain('hono');
    expect(await readdir(join(dir, 'node_modules/@questkit'))).toEqual(['conformance', 'core']);
    const mock = await run(join(dir, 'node_modules/.bin/questkit'), ['mock'], { cwd: dir }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code?: number; stderr?: string }) => ({
        code: error.code,
        stderr: error.stderr ?? '',
      }),
    );
    expect(mock.code).toBe(1);
    expect(mock.stderr).toContain('npm install --save-dev @questkit/mock-platform');
  }, 300_000);
});

describe.concurrent("the root README's try-from-source lines", () => {
  it('packs every package into one folder, and one npm install puts them all in dependencies', async () => {
    const manifests = await readdir(join(ROOT, 'packages'));
    expect(tarballs.size).toBe(manifests.length);
    expect(packOutput).toContain(`Packed ${tarballs.size} packages`);
    // Every package an app installs: all but the starter, which is run, not installed.
    const names = [...tarballs.keys()].filter((name) => name !== 'create-questkit').sort();
    const block = /<!-- try-from-source -->\n```sh\n([\s\S]*?)^```/m.exec(README)?.[1] ?? '';
    expect(block).toContain('pack:all');
    const line = block.split('\n').find((l) => l.startsWith('npm install '));
    expect(line).toMatch(/^npm install \.\.\/questkit\/packed\/questkit\*\.tgz /);
    // The app sits next to the clone: the line as written, with the clone's packed/ beside it.
    const { dir, done } = reusable(join('from-source', 'my-app'));
    if (!done) {
      const clone = join(dir, '..', 'questkit');
      await mkdir(dir, { recursive: true });
      await mkdir(clone);
      await symlink(reusable('tarballs').dir, join(clone, 'packed'));
      await run('npm', ['init', '-y'], { cwd: dir });
      const command = line!.replace(/#.*/, '').trim();
      await run('sh', ['-c', `${command} ${INSTALL_FLAGS.join(' ')}`], {
        cwd: dir,
        timeout: 180_000,
      });
      await markDone(dir);
    }
    const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    expect(
      Object.keys(manifest.dependencies)
        .filter((n) => names.includes(n))
        .sort(),
    ).toEqual(names);
    expect(manifest.devDependencies).toBeUndefined();
    const version = await run(join(dir, 'node_modules/.bin/questkit'), ['--version'], { cwd: dir });
    expect(version.stdout).toMatch(/^questkit \d+\.\d+\.\d+/);
    const loaded = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `for (const n of ${JSON.stringify(names.filter((n) => n !== 'questkit'))}) await import(n); console.log('ok')`,
      ],
      { cwd: dir },
    );
    expect(loaded.stdout.trim()).toBe('ok');
  }, 300_000);
});

describe("the root README's generator-from-source line", () => {
  it('writes a project from the packed starter, run as written from the folder of the clone', async () => {
    const block = /<!-- generator-from-source -->\n```sh\n([\s\S]*?)^```/m.exec(README)?.[1] ?? '';
    const line = block.split('\n').find((l) => l.startsWith('npm exec '));
    expect(line).toMatch(/-- create-questkit my-app --packages questkit\/packed$/);
    const { dir } = reusable(join('generator-from-source', 'parent'));
    await rm(dir, { recursive: true, force: true });
    await mkdir(join(dir, 'questkit'), { recursive: true });
    await symlink(reusable('tarballs').dir, join(dir, 'questkit', 'packed'));
    // The questions a terminal would ask, answered by their flags.
    await run('sh', ['-c', `${line} --framework express --yes`], { cwd: dir, timeout: 180_000 });
    const manifest = JSON.parse(await readFile(join(dir, 'my-app', 'package.json'), 'utf8'));
    expect(manifest.name).toBe('my-app');
    expect(manifest.dependencies).toHaveProperty('express');
    expect(manifest.dependencies['@questkit/express']).toMatch(/^file:.*questkit-express-.*\.tgz$/);
  }, 300_000);
});

interface RunSnippet {
  /** `core-2`: the README's package and the snippet's rank in it. */
  name: string;
  lang: 'ts' | 'js';
  code: string;
}

/** The READMEs whose snippets are tested: the repository's and every published package's. */
async function readmes(): Promise<{ slug: string; text: string }[]> {
  const found = [{ slug: 'root', text: README }];
  for (const dir of (await readdir(join(ROOT, 'packages'))).sort()) {
    const text = await readFile(join(ROOT, 'packages', dir, 'README.md'), 'utf8').catch(() => '');
    if (text) found.push({ slug: dir, text });
  }
  return found;
}

/** Each ```ts or ```js block marked `run`. */
function runSnippets(slug: string, readme: string): RunSnippet[] {
  const snippets: RunSnippet[] = [];
  for (const [, lang, code] of readme.matchAll(
    /^<!-- snippet: run -->\n```(ts|js)\n([\s\S]*?)^```/gm,
  )) {
    snippets.push({
      name: `${slug}-${snippets.length + 1}`,
      lang: lang as RunSnippet['lang'],
      code: code ?? '',
    });
  }
  return snippets;
}

const RUN_SNIPPETS = (await readmes()).flatMap(({ slug, text }) => runSnippets(slug, text));
const SNIPPET_LIMIT_MS = 30_000;

/** Runs `node file` to its end (at most SNIPPET_LIMIT_MS), with the platform's coordinates. */
function runNode(
  dir: string,
  file: string,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file], {
      cwd: dir,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), SNIPPET_LIMIT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe.concurrent('README snippets marked `run`, in a fresh npm app against the packed mock', () => {
  let dir: string;
  let mock: ChildProcess | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    const typescript = JSON.parse(
      await readFile(join(ROOT, 'node_modules/typescript/package.json'), 'utf8'),
    ).version;
    dir = await freshApp('snippets', [
      '@questkit/client',
      '@questkit/conformance',
      '@questkit/core',
      '@questkit/express',
      '@questkit/fastify',
      '@questkit/hono',
      '@questkit/mock-platform',
      'questkit',
      'express',
      'fastify',
      'hono',
      '@hono/node-server',
      `typescript@${typescript}`,
      '@types/node@20',
    ]);
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          lib: ['es2023', 'dom'],
          types: ['node'],
          noEmit: true,
          skipLibCheck: true,
        },
        include: ['*.mts'],
      }),
    );
    const port = await freePort();
    mock = spawn(join(dir, 'node_modules/.bin/questkit'), ['mock', '--port', String(port)], {
      cwd: dir,
      stdio: 'ignore',
    });
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 150; i++) {
      if (mock.exitCode !== null) throw new Error('questkit mock exited');
      const up = await fetch(`${url}/openapi.json`).then(
        (response) => response.ok,
        () => false,
      );
      if (up) break;
      if (i === 149) throw new Error(`questkit mock did not listen on ${port}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    env = {
      PLATFORM_URL: url,
      PLATFORM_API_KEY: 'qk_demo_rw_0f3a9c1e5b7d42a8',
      QUEST_API_KEY: KEY,
    };
    for (const snippet of RUN_SNIPPETS) {
      await writeFile(
        join(dir, `${snippet.name}.${snippet.lang === 'ts' ? 'mts' : 'mjs'}`),
        snippet.code,
      );
    }
  }, 300_000);

  afterAll(() => {
    mock?.kill();
  });

  it('finds the marked snippets of the READMEs', () => {
    const byReadme = new Set(RUN_SNIPPETS.map((snippet) => snippet.name.replace(/-\d+$/, '')));
    expect([...byReadme].sort()).toEqual([
      'client',
      'conformance',
      'core',
      'hono',
      'mock-platform',
      'root',
    ]);
  });

  it('type-checks every TypeScript snippet, strict, as pasted', async () => {
    const tsc = await run(join(dir, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], {
      cwd: dir,
      timeout: 120_000,
    }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? 'tsc failed',
    );
    expect(tsc).toBe('');
  }, 180_000);

  // One after the other: the snippets share the mock's demo community and its state.
  it.sequential.each(RUN_SNIPPETS)('$name runs to its end and exits 0', async (snippet) => {
    let file = `${snippet.name}.mjs`;
    if (snippet.lang === 'ts') {
      // Types stripped by the app's own TypeScript, nothing else changed.
      const { default: ts } = await import(
        pathToFileURL(join(dir, 'node_modules/typescript/lib/typescript.js')).href
      );
      const js = ts.transpileModule(snippet.code, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      }).outputText;
      file = `${snippet.name}.ts.mjs`;
      await writeFile(join(dir, file), js);
    }
    const result = await runNode(dir, file, env);
    expect(result.code, result.output).toBe(0);
  }, 60_000);
});
