import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The tests Stryker runs against each mutant: core's own, which import its sources (the other
// packages import core's build, which a mutant of the sources does not reach).
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../packages/core', import.meta.url)),
    // The tests of the guarded code only: the schemas' and the contract's tests reach none of it,
    // and each extra file is run again for every static mutant.
    include: [
      'src/api-key.test.ts',
      'src/hmac.test.ts',
      'src/verifier.test.ts',
      'src/verifier/door.test.ts',
      'src/connect/*.test.ts',
      'src/webhooks/*.test.ts',
      'src/front-door/*.test.ts',
    ],
    testTimeout: 30_000,
  },
});
