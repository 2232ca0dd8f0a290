import { spawnSync } from 'node:child_process';
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectFiles } from '../src/generate.js';
import { FRAMEWORKS, type ProjectOptions } from '../src/options.js';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, run, shellQuoted } from '../src/run.js';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'create-questkit-run-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** Runs the generator without a terminal in `work`, capturing what it prints. */
async function generate(argv: string[], interactive = false) {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    interactive,
    cwd: work,
    version: '9.9.9',
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
}

const base: ProjectOptions = {
  name: 'my-app',
  framework: 'express',
  requires: ['email'],
  connect: false,
  webhooks: false,
};

describe('usage errors: exit 2, a clear line, nothing written', () => {
  it.each([
    [
      ['app-1', '--framwork', 'hono'],
      /Unknown option '--framwork'.*\(did you mean --framework\?\)/,
    ],
    [
      ['app-2', '--framework', 'expres'],
      /unknown framework "expres" \(did you mean "express"\?\); use one of express, fastify, hono, nextjs, workers/,
    ],
    [['app-3', '--framework', 'nxt'], /unknown framework "nxt" \(did you mean "nextjs"\?\)/],
    [['app-4', '--framework', 'rails'], /unknown framework "rails"; use one of/],
    [
      ['app-5', '-f', 'hono', '--requires', 'emial'],
      /--requires: unknown identification method "emial" \(did you mean "email"\?\)/,
    ],
    [['app-6', '-f', 'hono', '--requires', ','], /--requires needs a list/],
    [
      ['My App', '-f', 'hono'],
      /"My App" is not a valid package name.*\(did you mean "my-app"\?\); or give the package name with --name/,
    ],
    [
      ['app-7', '-f', 'hono', '--name', '_private'],
      /--name: "_private" is not a valid package name/,
    ],
    [
      ['app-8'],
      /give --framework \(express, fastify, hono, nextjs, workers\): there is no terminal to ask in/,
    ],
    [['-f', 'hono'], /give the directory to create/],
    [['app-9', 'app-10', '-f', 'hono'], /one directory, not 2/],
    [['app-11', '-f', 'hono', '--connect=yes'], /--connect/],
  ])('%j', async (argv, message) => {
    const result = await generate(argv);
    expect(result.code).toBe(EXIT_USAGE);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain('Run create-questkit --help for the options.');
    expect(result.stdout).toBe('');
    expect(await readdir(work)).toEqual([]);
  });

  it('reports a bad flag before asking anything, even in a terminal', async () => {
    const result = await generate(['app', '--framework', 'fastfy'], true);
    expect(result.code).toBe(EXIT_USAGE);
    expect(result.stderr).toMatch(/did you mean "fastify"/);
  });

  it('takes the aliases next and cloudflare', async () => {
    expect((await generate(['alias-next', '-f', 'next'])).code).toBe(EXIT_OK);
    expect(await readdir(join(work, 'alias-next', 'app/api/verify'))).toEqual(['route.ts']);
    expect((await generate(['alias-cf', '-f', 'cloudflare'])).code).toBe(EXIT_OK);
    expect(await readdir(join(work, 'alias-cf'))).toContain('wrangler.toml');
    await rm(join(work, 'alias-next'), { recursive: true });
    await rm(join(work, 'alias-cf'), { recursive: true });
  });
});

describe('help and version', () => {
  it('prints the usage with every flag, exit 0', async () => {
    const result = await generate(['--help']);
    expect(result.code).toBe(EXIT_OK);
    for (const flag of [
      '--framework',
      '--requires',
      '--connect',
      '--webhooks',
      '--name',
      '--force',
      '--yes',
    ]) {
      expect(result.stdout).toContain(flag);
    }
  });

  it('prints the version', async () => {
    expect((await generate(['--version'])).stdout).toBe('9.9.9\n');
  });
});

describe('an existing folder', () => {
  it('refuses a folder that is not empty, and leaves it as it was', async () => {
    const dir = join(work, 'taken');
    await mkdir(dir);
    await writeFile(join(dir, 'package.json'), '{"name":"mine"}');
    const result = await generate(['taken', '-f', 'hono']);
    expect(result.code).toBe(EXIT_FAILED);
    expect(result.stderr).toMatch(/taken is not empty \(1 entry, e\.g\. package\.json\).*--force/);
    expect(await readdir(dir)).toEqual(['package.json']);
    expect(await readFile(join(dir, 'package.json'), 'utf8')).toBe('{"name":"mine"}');
  });

  it('writes over the project files with --force, keeping the others', async () => {
    const dir = join(work, 'taken');
    await writeFile(join(dir, 'notes.txt'), 'keep me');
    const result = await generate(['taken', '-f', 'hono', '--force']);
    expect(result.code).toBe(EXIT_OK);
    expect(JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')).name).toBe('taken');
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('keep me');
  });

  it('refuses a path that is a file', async () => {
    await writeFile(join(work, 'a-file'), '');
    const result = await generate(['a-file', '-f', 'hono', '--force']);
    expect(result.code).toBe(EXIT_FAILED);
    expect(result.stderr).toMatch(/exists and is not a folder/);
  });

  it('refuses, with --force, a linked file: nothing outside the folder is written', async () => {
    const dir = join(work, 'linked-file');
    await mkdir(dir);
    const outside = join(work, 'outside.txt');
    await writeFile(outside, 'not yours');
    await symlink(outside, join(dir, 'README.md'));
    const result = await generate(['linked-file', '-f', 'hono', '--force']);
    expect(result.code).toBe(EXIT_FAILED);
    expect(result.stderr).toMatch(/linked-file\/README\.md is a symbolic link/);
    expect(await readFile(outside, 'utf8')).toBe('not yours');
    // Refused before anything was written.
    expect(await readdir(dir)).toEqual(['README.md']);
  });

  it('refuses, with --force, a linked folder: no source lands elsewhere', async () => {
    const dir = join(work, 'linked-dir');
    const elsewhere = join(work, 'elsewhere');
    await mkdir(dir);
    await mkdir(elsewhere);
    await symlink(elsewhere, join(dir, 'src'));
    const result = await generate(['linked-dir', '-f', 'hono', '--force']);
    expect(result.code).toBe(EXIT_FAILED);
    expect(result.stderr).toMatch(/linked-dir\/src is a symbolic link/);
    expect(await readdir(elsewhere)).toEqual([]);
  });

  it('prints the cd line quoted for the shell: a pasted path expands nothing', async () => {
    const result = await generate(["it's $(touch pwned)", '-f', 'hono', '--name', 'quoted']);
    expect(result.code).toBe(EXIT_OK);
    expect(result.stdout).toContain(`  cd 'it'\\''s $(touch pwned)'\n`);
    // Pasted into a shell, the line goes into the folder and runs nothing.
    const cd = /^ {2}(cd .*)$/m.exec(result.stdout)![1]!;
    const shell = spawnSync('sh', ['-c', `${cd} && pwd`], { cwd: work, encoding: 'utf8' });
    expect(shell.stdout.trim()).toBe(join(await realpath(work), "it's $(touch pwned)"));
    expect(await readdir(work)).not.toContain('pwned');
    expect(shellQuoted('my-app/sub_1.x')).toBe('my-app/sub_1.x');
    await rm(join(work, "it's $(touch pwned)"), { recursive: true });
  });

  it('takes a folder holding only .git', async () => {
    await mkdir(join(work, 'repo/.git'), { recursive: true });
    expect((await generate(['repo', '-f', 'fastify'])).code).toBe(EXIT_OK);
    expect(await readdir(join(work, 'repo'))).toContain('package.json');
  });
});

describe('the files of a project', () => {
  it('names the @questkit versions of this repository, read when the generator is built', async () => {
    const root = new URL('../../', import.meta.url);
    const versionOf = async (dir: string) =>
      JSON.parse(await readFile(new URL(`${dir}/package.json`, root), 'utf8')).version as string;
    const manifest = JSON.parse(
      projectFiles({ ...base, connect: true, webhooks: true })['package.json']!,
    );
    expect(manifest.dependencies['@questkit/core']).toBe(`^${await versionOf('core')}`);
    expect(manifest.dependencies['@questkit/express']).toBe(`^${await versionOf('express')}`);
    expect(manifest.devDependencies['@questkit/conformance']).toBe(
      `^${await versionOf('conformance')}`,
    );
    expect(manifest.devDependencies.questkit).toBe(`^${await versionOf('cli')}`);
    expect(manifest.devDependencies['@questkit/mock-platform']).toBe(
      `^${await versionOf('mock-platform')}`,
    );
    // Without connect or webhooks, the tests need no mock.
    expect(JSON.parse(projectFiles(base)['package.json']!).devDependencies).not.toHaveProperty(
      '@questkit/mock-platform',
    );
  });

  it.each(
    FRAMEWORKS,
  )('%s: the usual scripts, the secrets in .env.example, a CI workflow', (framework) => {
    const files = projectFiles({ ...base, framework, connect: true, webhooks: true });
    const { scripts } = JSON.parse(files['package.json']!);
    expect(scripts).toMatchObject({
      dev: expect.any(String),
      test: 'vitest run',
      typecheck: expect.any(String),
    });
    if (framework === 'workers') expect(scripts.deploy).toBe('wrangler deploy');
    else expect(scripts).toMatchObject({ build: expect.any(String), start: expect.any(String) });
    for (const name of ['QUEST_API_KEY', 'CONNECT_SECRET', 'SESSION_SECRET', 'WEBHOOK_SECRET']) {
      expect(files['.env.example']).toMatch(new RegExp(`^${name}=$`, 'm'));
      expect(files['README.md']).toContain(`\`${name}\``);
    }
    expect(files['.github/workflows/ci.yml']).toMatch(
      /npx questkit check http:\/\/127\.0\.0\.1:\d+\S*verify/,
    );
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining([
        'test/endpoint.test.ts',
        'test/connect.test.ts',
        'test/webhooks.test.ts',
      ]),
    );
    // No secret has a default anywhere in the project.
    for (const [path, text] of Object.entries(files)) {
      if (path.startsWith('test/') || path.endsWith('ci.yml')) continue;
      expect(text, path).not.toMatch(/demo-task-key|QUEST_API_KEY \?\?|QUEST_API_KEY \|\|/);
    }
  });

  it("writes requires in the contract's order, and none as an empty list", () => {
    const quest = (requires: ProjectOptions['requires']) =>
      projectFiles({ ...base, requires })['src/quest.ts']!;
    expect(quest(['discord', 'email'])).toContain("REQUIRES = ['discord', 'email'] as const");
    expect(quest([])).toContain('REQUIRES = [] as const');
    expect(quest([])).toContain('completed.has(claim.userId)');
  });

  it.each(
    FRAMEWORKS.flatMap((framework) => [
      { ...base, framework },
      { ...base, framework, requires: [], connect: true, webhooks: true },
    ]),
  )('$framework (connect $connect): every package it imports is in its package.json', (options) => {
    const files = projectFiles(options);
    const manifest = JSON.parse(files['package.json']!);
    const declared = new Set([
      ...Object.keys(manifest.dependencies),
      ...Object.keys(manifest.devDependencies),
    ]);
    const used = new Set<string>();
    for (const [path, text] of Object.entries(files)) {
      if (!/\.(ts|tsx|mjs)$/.test(path)) continue;
      for (const [, specifier] of text.matchAll(/(?:from|import\()\s*'([^']+)'/g)) {
        if (specifier!.startsWith('.') || specifier!.startsWith('node:')) continue;
        const parts = specifier!.split('/');
        used.add(specifier!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!);
      }
    }
    expect(used.size).toBeGreaterThan(3);
    expect([...used].filter((name) => !declared.has(name))).toEqual([]);
  });
});
