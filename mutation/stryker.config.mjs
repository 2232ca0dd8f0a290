// Mutation testing of the code that guards money and access (`pnpm test:mutation`, from the
// repository root). Too slow for `pnpm test` and CI: run it when one of these files changes.
// Incremental: `stryker-incremental.json` (committed) keeps each mutant's last verdict, so a run
// tests only the mutants of code or tests that changed since.

/** The guarded files, one line each (the README of reliability/ gives their scores). */
const GUARDED = [
  // The verification call's key check (constant time, rotation).
  'packages/core/src/api-key.ts',
  'packages/core/src/secrets.ts',
  // Connect signing and verification.
  'packages/core/src/hmac.ts',
  'packages/core/src/connect/sign.ts',
  'packages/core/src/connect/verify.ts',
  'packages/core/src/connect/canonical.ts',
  // The webhook receiver's secret check and its dedupe and run-once.
  'packages/core/src/webhooks/delivery.ts',
  'packages/core/src/webhooks/dedupe.ts',
  'packages/core/src/webhooks/redis-dedupe.ts',
  'packages/core/src/webhooks/run-once.ts',
  // The front door's limits: body size and the deadline.
  'packages/core/src/front-door/read-body.ts',
  'packages/core/src/front-door/deadline.ts',
];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: GUARDED,
  testRunner: 'vitest',
  vitest: { configFile: 'mutation/vitest.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner'],
  // The guarded files are small; the sandbox would copy a pnpm workspace whose packages resolve
  // through their own node_modules links. In place, Stryker restores each file after its run.
  inPlace: true,
  // Vitest does not type-check: without this, Stryker adds `// @ts-nocheck` to every source file
  // of the repository, in place.
  disableTypeChecks: false,
  coverageAnalysis: 'perTest',
  // A static mutant (a module-level constant: a regex, a default) would rerun every test for
  // each: reported as ignored instead, and reviewed by hand (reliability/README.md).
  ignoreStatic: true,
  concurrency: 2,
  timeoutMS: 30_000,
  incremental: true,
  incrementalFile: 'mutation/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'mutation/reports/mutation.json' },
  tempDirName: 'mutation/.stryker-tmp',
  thresholds: { high: 90, low: 80, break: null },
};
