import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../src/run.js';

// One generated project run as a user runs it, in the ordinary test run: a Hono project written
// with --packages from this repository's packed tarballs, installed with npm (no install scripts,
// as its CI installs), then its own `npm test`: a template that breaks the app, its tests or its
// safety (a default host beyond loopback) fails here. install.test.ts does every framework.

const execute = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

let work: string;
const timings: string[] = [];
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'create-questkit-generated-'));
});
afterAll(async () => {
  if (timings.length > 0)
    console.log(`create-questkit, one generated project: ${timings.join(', ')}`);
  if (work) await rm(work, { recursive: true, force: true });
});

describe('a generated project, installed from the packed packages', () => {
  it('passes its own npm test', async () => {
    let since = performance.now();
    // `pnpm test` has just built every package: their `prepack` build is skipped.
    await execute(
      process.execPath,
      [join(ROOT, 'scripts/pack-all.mjs'), '--skip-build', join(work, 'packed')],
      { cwd: ROOT, timeout: 300_000 },
    );
    timings.push(`pack ${seconds(since)}`);

    let output = '';
    const status = await run(['app', '--framework', 'hono', '--packages', 'packed'], {
      interactive: false,
      cwd: work,
      version: '0.0.0',
      stdout: (text) => {
        output += text;
      },
      stderr: (text) => {
        output += text;
      },
    });
    expect(status, output).toBe(0);
    const app = join(work, 'app');
    const manifest = JSON.parse(await readFile(join(app, 'package.json'), 'utf8'));
    expect(manifest.dependencies['@questkit/hono']).toMatch(/^file:\.\.\/packed\/questkit-hono-/);

    since = performance.now();
    // npm's cached metadata as it is: the third-party packages are the only ones it looks up.
    await execute(
      'npm',
      ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'],
      { cwd: app, timeout: 600_000 },
    );
    timings.push(`npm install ${seconds(since)}`);

    since = performance.now();
    const tested = await execute('npm', ['test'], {
      cwd: app,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      timeout: 300_000,
    }).catch((error: { stdout?: string; stderr?: string }) => ({
      stdout: `${error.stdout ?? ''}\n${error.stderr ?? ''}`,
      failed: true,
    }));
    timings.push(`npm test ${seconds(since)}`);
    expect(tested.stdout).toMatch(/Tests\s+5 passed/);
    expect('failed' in tested).toBe(false);
  }, 900_000);
});
