import { rmSync } from 'node:fs';
import { defineConfig } from 'tsup';

const entry = {
  index: 'src/index.ts',
  'adapter/index': 'src/adapter/index.ts',
  'api/index': 'src/api/index.ts',
  'openapi/index': 'src/openapi/index.ts',
};

// Two passes write into one dist/, so it is emptied once here rather than by either pass.
rmSync(new URL('dist', import.meta.url), { recursive: true, force: true });

export default defineConfig([
  {
    // ESM one file per module, as written: a bundler keeps only the modules an app imports (a
    // Worker's verifier leaves the API's and the webhooks' schemas out), since core has no side
    // effects. Declarations are bundled per entry.
    entry: ['src/**/*.ts', '!src/**/*.test.ts', '!src/**/*.test-d.ts', '!src/**/*.testkit.ts'],
    format: ['esm'],
    bundle: false,
    dts: { entry },
    sourcemap: false,
    target: 'node20',
  },
  {
    // CommonJS for require(): one file per entry, the modules two entries share in chunks beside
    // them (the OpenAPI entry would otherwise carry a second copy of every API schema).
    entry,
    format: ['cjs'],
    splitting: true,
    dts: true,
    sourcemap: false,
    target: 'node20',
  },
]);
