import { defineConfig } from 'tsup';
import { readVersions } from './versions.js';

// The versions the generated projects depend on are read from the workspace when the generator is
// built, so each release names the packages released with it.
const define = { __QUESTKIT_VERSIONS__: JSON.stringify(readVersions()) };

// ESM: the library and the binary (`bin` points to it) sharing one chunk; CJS: the library alone,
// with its ESM-only dependency bundled (Node 20 before 20.19 cannot require it) and `import.meta.url`
// shimmed (the templates are found beside dist/).
export default defineConfig([
  {
    entry: ['src/index.ts', 'src/cli.ts'],
    format: ['esm'],
    dts: { entry: 'src/index.ts' },
    clean: true,
    target: 'node20',
    define,
  },
  {
    entry: ['src/index.ts'],
    format: ['cjs'],
    dts: { entry: 'src/index.ts' },
    noExternal: ['@clack/prompts'],
    shims: true,
    target: 'node20',
    define,
  },
]);
