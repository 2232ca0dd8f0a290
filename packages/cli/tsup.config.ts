import { defineConfig } from 'tsup';

// The library in both formats; the binary in ESM only, the one format `bin` points to.
export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    target: 'node20',
  },
  {
    entry: ['src/cli.ts'],
    format: ['esm'],
    target: 'node20',
  },
]);
