import { defineConfig } from 'vitest/config';

// One project per workspace package; each project takes its name from its package.json.
// The JSON report feeds the `tests: N passed, M failed` line that .ci/run prints last.
export default defineConfig({
  test: {
    projects: ['packages/*', 'examples/*', 'bench', 'reliability', 'runtimes', 'test', 'corpus'],
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-report.json' },
  },
});
