import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The judge's tests Stryker runs against each mutant of its verdicts: they judge real endpoints
// over HTTP on 127.0.0.1 (the judge imports core's build, which these mutants do not touch).
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../packages/conformance', import.meta.url)),
    include: [
      'src/stopped-answering.test.ts',
      'src/key-refusal.test.ts',
      'src/verdicts.test.ts',
      'src/refused-claims.test.ts',
      'src/key-verdict.test.ts',
      'src/run-verdict.test.ts',
    ],
    testTimeout: 60_000,
  },
});
