import { defineConfig } from 'vitest/config';
import { readVersions } from './versions.js';

// The source reads the versions the build injects: the tests inject the same.
export default defineConfig({
  define: { __QUESTKIT_VERSIONS__: JSON.stringify(readVersions()) },
  // Hang limits only, as the root config gives the other projects: removing nine installed
  // projects takes more than vitest's default 10 s on a busy machine.
  test: { name: 'create-questkit', testTimeout: 60_000, hookTimeout: 120_000 },
});
