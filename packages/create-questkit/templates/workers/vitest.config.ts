import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The conformance battery sends about 60 claims over real HTTP.
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
