import { defineConfig } from 'tsup';
import { readVersions } from './versions.js';

// The versions the generated projects depend on are read from the workspace when the generator is
// built, so each release names the packages released with it.
const define = { __QUESTKIT_VERSIONS__: JSON.stringify(readVersions()) };

// The library in both formats; the binary in ESM only, the one format `bin` points to.
export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    target: 'node20',
    define,
  },
  {
    entry: ['src/cli.ts'],
    format: ['esm'],
    target: 'node20',
    define,
  },
]);
