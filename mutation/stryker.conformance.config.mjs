// Mutation testing of the judge's verdicts (`pnpm test:mutation` runs it after the core files of
// stryker.config.mjs). Its own incremental file: `stryker-incremental-conformance.json`.
import core from './stryker.config.mjs';

/** The judge's decision code: what passes, fails or goes unjudged, not the report's wording. */
const GUARDED = [
  // The member verdicts: the key check's, the answer's, the server staying up.
  'packages/conformance/src/verdicts.ts',
  // Words that read as a refused key (a key-refused failure).
  'packages/conformance/src/key-refusal.ts',
  // Whether the server stopped answering (its sentence excluded).
  'packages/conformance/src/stopped-answering.ts:21-49',
  // The tiers', the run's and the platform's verdicts (the closing line's pass/fail).
  'packages/conformance/src/summary.ts:64-110',
];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...core,
  mutate: GUARDED,
  vitest: { configFile: 'mutation/vitest.conformance.config.ts' },
  // A string here is a report's wording; a comparison with a status or an id is still mutated,
  // as a condition (always true, always false).
  mutator: { excludedMutations: ['StringLiteral'] },
  // Each test judges a live endpoint over HTTP: one mutant at a time next to other work.
  concurrency: 1,
  timeoutMS: 60_000,
  incrementalFile: 'mutation/stryker-incremental-conformance.json',
  jsonReporter: { fileName: 'mutation/reports/mutation-conformance.json' },
  tempDirName: 'mutation/.stryker-tmp-conformance',
};
