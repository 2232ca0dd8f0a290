/**
 * How much each suite does. CI (`pnpm test`) runs the reduced counts; `pnpm test:fuzz` and
 * `pnpm test:reliability` set QUESTKIT_FULL=1 for the full ones. QUESTKIT_SEED replays a run.
 */

/** True in a full run. */
export const FULL = process.env.QUESTKIT_FULL === '1';

/** The seed of every generated input; a run is reproduced by passing the same one. */
export const SEED = Number(process.env.QUESTKIT_SEED ?? 20_240_611);

/** Counts and durations of every suite, for the full run and for CI. */
export const COUNTS = FULL
  ? {
      fuzzRequestsPerAdapter: 10_000,
      fuzzConcurrency: 8,
      connectCasesPerAdapter: 2_000,
      heldConnections: 200,
      loadConnections: 200,
      loadSeconds: 30,
      concurrentClaims: 1_000,
    }
  : {
      fuzzRequestsPerAdapter: 400,
      fuzzConcurrency: 8,
      connectCasesPerAdapter: 150,
      heldConnections: 50,
      loadConnections: 50,
      loadSeconds: 3,
      concurrentClaims: 150,
    };
