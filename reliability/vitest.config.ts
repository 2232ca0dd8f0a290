import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@questkit/reliability',
    globalSetup: ['./src/global-setup.ts'],
    testTimeout: 600_000,
    hookTimeout: 60_000,
  },
});
