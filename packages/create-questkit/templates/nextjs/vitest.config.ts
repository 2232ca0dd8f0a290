import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The conformance battery sends about 60 claims over real HTTP; the app is started with next start.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One `next build` before every test file.
    globalSetup: ['test/build.ts'],
  },
});
