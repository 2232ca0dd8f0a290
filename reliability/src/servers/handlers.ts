import {
  fail,
  ok,
  type QuestRoute,
  type VerifyContext,
  type VerifyHandler,
  type VerifyResult,
} from '@questkit/core';
import type { FaultQuest } from './protocol.js';

/**
 * A deliberately careless deep merge, as application code often has. questkit hands handlers a
 * validated claim with unknown keys dropped, so even this cannot be steered into
 * `Object.prototype` by a `__proto__` key in the body; the fuzz suite checks that it never is.
 */
function naiveMerge(target: Record<string, unknown>, source: unknown): Record<string, unknown> {
  if (typeof source !== 'object' || source === null) return target;
  for (const key of Object.keys(source)) {
    const value = (source as Record<string, unknown>)[key];
    if (typeof value === 'object' && value !== null) {
      const next = (target[key] ?? {}) as Record<string, unknown>;
      target[key] = naiveMerge(next, value);
    } else {
      target[key] = value;
    }
  }
  return target;
}

function spread(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) >>> 0;
  return hash;
}

/**
 * The `verify` route's handler: a plausible app that touches the claim, and answers ok, fail,
 * throws or answers after a tick, chosen from the claim so the fuzz run reaches every branch.
 */
export const answerFromClaim: VerifyHandler = async ({ claim, accounts }: VerifyContext) => {
  const profile = naiveMerge({}, { ...claim, accounts });
  const branch = spread(`${claim.userId}|${claim.requestId}`) % 4;
  if (branch === 0) return ok(`Verified ${String(profile.userId).slice(0, 40)}.`);
  if (branch === 1) return fail('Not yet: follow the community account first, then claim again.');
  if (branch === 2) throw new Error(`lookup failed for request ${claim.requestId.slice(0, 40)}`);
  await new Promise((resolve) => setImmediate(resolve));
  return ok();
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * One misbehaving handler per questId of the `faults` route. `lateByMs` is how long past the
 * deadline the late ones settle.
 */
export function faultHandlers(lateByMs: number): Record<FaultQuest, QuestRoute<never>> {
  const route = (verify: (ctx: VerifyContext) => unknown): QuestRoute<never> => ({
    verify: verify as VerifyHandler,
  });
  return {
    throws: route(() => {
      throw new Error('the database is down');
    }),
    'throws-non-error': route(() => {
      throw { code: 42 };
    }),
    rejects: route(() => Promise.reject(new Error('upstream 503'))),
    'returns-undefined': route(() => undefined),
    'returns-null': route(() => null),
    'returns-number': route(() => 200),
    'returns-plain-object': route(() => ({ claimed: true, message: 'yes' })),
    'returns-forged-result': route(() => ({ ...ok('forged'), claimed: 'yes' })),
    'never-settles': route(() => new Promise<VerifyResult>(() => {})),
    'settles-late': route(async ({ deadline }) => {
      await sleep(deadline - Date.now() + lateByMs);
      return ok('too late');
    }),
    'rejects-late': route(async ({ deadline }) => {
      await sleep(deadline - Date.now() + lateByMs);
      throw new Error('failed after the deadline');
    }),
    answers: route(() => ok('Verified.')),
  };
}
