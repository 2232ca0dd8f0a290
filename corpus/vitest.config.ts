import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@questkit/corpus',
    // One Next.js app for both test files, built and started before them.
    globalSetup: ['./src/next-app.setup.ts'],
    // Each entry runs questkit check (45 requests) and the mock's: seconds each on a busy machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
