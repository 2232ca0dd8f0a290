import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

// One project per workspace package, named after its package.json. The JSON report feeds the
// `tests: N passed, M failed` line that `pnpm test` and .ci/run print last. The bench's smoke test
// is not a project here: `pnpm bench:smoke` runs it.
const ROOT = fileURLToPath(new URL('.', import.meta.url));
const PACKAGES = [
  ...['packages', 'examples'].flatMap((parent) =>
    readdirSync(join(ROOT, parent)).map((name) => `${parent}/${name}`),
  ),
  'reliability',
  'runtimes',
  'test',
  'corpus',
].filter((dir) => existsSync(join(ROOT, dir, 'package.json')));

// A test's and a hook's time limits only catch a hang: far above what a busy machine takes, so
// that a slow run is never a failed one. A package with a vitest config of its own sets its own.
const HANG_LIMITS = { testTimeout: 60_000, hookTimeout: 120_000 };

function project(dir: string): TestProjectInlineConfiguration {
  if (existsSync(join(ROOT, dir, 'vitest.config.ts'))) {
    return { extends: `./${dir}/vitest.config.ts`, root: dir };
  }
  const { name } = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as {
    name: string;
  };
  return { root: dir, test: { name, ...HANG_LIMITS } };
}

export default defineConfig({
  test: {
    projects: PACKAGES.map(project),
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-report.json' },
  },
});
