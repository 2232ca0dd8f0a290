import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The tests Stryker runs against each mutant: core's own, which import its sources (the other
// packages import core's build, which a mutant of the sources does not reach).
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../packages/core', import.meta.url)),
    include: ['src/**/*.test.ts'],
    exclude: ['**/*.browser.test.ts', '**/node_modules/**'],
    testTimeout: 30_000,
  },
});
