import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

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

// The files of a project share their worker's imports (no test file changes a module that another
// imports, and a stubbed global is restored): importing the packages afresh for each file was much
// of the CPU of a run that the CPU bounds. The workspace packages' builds are plain JavaScript that
// Node imports itself, as from node_modules, not through vitest's transform.
const SHARED_IMPORTS = {
  isolate: false,
  server: { deps: { external: [/\/packages\/[^/]+\/dist\//] } },
};

function project(dir: string): TestProjectInlineConfiguration {
  if (existsSync(join(ROOT, dir, 'vitest.config.ts'))) {
    return { extends: `./${dir}/vitest.config.ts`, root: dir, test: SHARED_IMPORTS };
  }
  const { name } = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as {
    name: string;
  };
  return { root: dir, test: { name, ...HANG_LIMITS, ...SHARED_IMPORTS } };
}

// The files that take longest, started first: vitest's own order goes project by project, which
// left the create-questkit install and the quick starts trailing the rest of the run.
const LONGEST_FIRST = [
  'packages/create-questkit/test/install.test.ts',
  'packages/create-questkit/test/readme.test.ts',
  'test/src/quick-starts.test.ts',
  'reliability/src/endpoints/faults.test.ts',
  'reliability/src/endpoints/door-bodies.test.ts',
  'corpus/src/corpus.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = LONGEST_FIRST.indexOf(relative(ROOT, file.moduleId).replaceAll('\\', '/'));
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    // Array sort is stable: the rest keeps vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    projects: PACKAGES.map(project),
    // Most of a test's time waits on child processes, sockets and timers, not on the CPU: twice
    // as many files at once as the machine has cores.
    maxWorkers: 2 * availableParallelism(),
    sequence: { sequencer: LongestFirst },
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-report.json' },
  },
});
