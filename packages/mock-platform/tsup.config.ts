import { cpSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { ASSET_FILES } from './src/assets.js';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: false,
  target: 'node20',
  // import.meta.url in the CommonJS build too: src/assets.ts finds the files beside the build.
  shims: true,
  onSuccess: async () => {
    for (const file of ASSET_FILES) {
      cpSync(new URL(`./src/${file}`, import.meta.url), new URL(`./dist/${file}`, import.meta.url));
    }
  },
});
