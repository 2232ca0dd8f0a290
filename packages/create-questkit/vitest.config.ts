import { defineConfig } from 'vitest/config';
import { readVersions } from './versions.js';

// The source reads the versions the build injects: the tests inject the same.
export default defineConfig({
  define: { __QUESTKIT_VERSIONS__: JSON.stringify(readVersions()) },
  test: { name: 'create-questkit' },
});
