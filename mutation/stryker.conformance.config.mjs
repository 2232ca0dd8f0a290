// Mutation testing of the judge's verdicts (`pnpm test:mutation` runs it after the core files of
// stryker.config.mjs). Its own incremental file: `stryker-incremental-conformance.json`.
import core from './stryker.config.mjs';

/** The judge's decision code: what passes, fails or goes unjudged, not the report's wording. */
const GUARDED = [
  // The member verdicts: which answers count as the same, a verdict's status, whether a verdict
  // is judged at all, and the key check's (the answer's and staying-up's sentences excluded).
  'packages/conformance/src/verdicts.ts:45-55',
  'packages/conformance/src/verdicts.ts:63-68',
  'packages/conformance/src/verdicts.ts:112-135',
  'packages/conformance/src/verdicts.ts:155-252',
  // Words that read as a refused key (a key-refused failure).
  'packages/conformance/src/key-refusal.ts',
  // Whether the server stopped answering (its sentence excluded).
  'packages/conformance/src/stopped-answering.ts:21-49',
  // The run's verdict: the closing line's pass, fail or not judged.
  'packages/conformance/src/summary.ts:77-88',
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
