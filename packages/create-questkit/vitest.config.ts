import { defineConfig } from 'vitest/config';
import { readVersions } from './versions.js';

// The source reads the versions the build injects: the tests inject the same.
export default defineConfig({
  define: { __QUESTKIT_VERSIONS__: JSON.stringify(readVersions()) },
  test: {
    name: 'create-questkit',
    // The templates' own tests run in the projects generated from them (test/generated.test.ts).
    exclude: ['templates/**', '**/node_modules/**'],
    // Hang limits only, as the root config gives the other projects: removing nine installed
    // projects takes more than vitest's default 10 s on a busy machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The installed projects are checked three at a time: each runs tsc, vitest or next build.
    maxConcurrency: 3,
  },
});
