import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@questkit/reliability',
    globalSetup: ['./src/global-setup.ts'],
    // The suites drive real servers in child processes and measure them: one file at a time
    // keeps the measurements of one suite free of another's load on this 2-core machine.
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 60_000,
  },
});
