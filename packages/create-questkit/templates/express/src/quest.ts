import { fail, ok, type VerifyHandler } from '@questkit/core';

/**
 * The accounts the platform must send with every claim: the task's identification methods. A
 * claim without one is answered 400 asking the member to link it, before `verify` runs. Tick
 * the same methods in the task's settings on the platform.
 */
export const REQUIRES = ['svc-connect'] as const;

// Replace with a lookup in your own data (database, mailing list, API): who did what the quest asks.
const completed = new Set(['member-1']);

/**
 * Decides one claim: `ok(message)` completes the task, `fail(message)` tells the member what is
 * missing (the platform shows it with the claim's requestId). Pass `signal` to your fetch and
 * database calls: it aborts at the deadline, before the platform's 10 s.
 */
export const verify: VerifyHandler<(typeof REQUIRES)[number]> = async ({ accounts, signal }) => {
  signal.throwIfAborted();
  return completed.has(accounts['svc-connect'])
    ? ok('Thanks! Quest complete.')
    : fail('We could not find that you did this yet. Do what the quest asks, then claim again.');
};
