import { defineConfig } from 'vitest/config';

// One project per workspace package; each project takes its name from its package.json.
// The JSON report feeds the `tests: N passed, M failed` line that `pnpm test` and .ci/run print
// last. The bench's smoke test is not a project here: `pnpm bench:smoke` runs it.
export default defineConfig({
  test: {
    projects: ['packages/*', 'examples/*', 'reliability', 'runtimes', 'test', 'corpus'],
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-report.json' },
  },
});
