import { beforeDeadline, TIMED_OUT } from '../front-door/index.js';
import { isVerifyResult } from '../results.js';
import type { VerificationRequest } from '../schemas/verification.js';
import type { IdentificationMethod } from '../schemas/verification-constants.js';
import type { Route, VerifierConfig } from './options.js';
import type { Outcome } from './outcome.js';
import type { VerifyContext } from './types.js';

/**
 * Step 9: the handler, raced against the deadline when it returns a promise (one that answers at
 * once needs no timer). Past the deadline its signal aborts, and whatever it does later is
 * reported, never written: one answer only.
 */
export async function runHandler(
  config: VerifierConfig,
  route: Route,
  claim: VerificationRequest,
  deadline: number,
): Promise<Outcome> {
  const { messages } = config;
  const info = { requestId: claim.requestId, questId: claim.questId } as const;
  const context = new HandlerContext(claim, deadline);
  let returned: unknown;
  let result: unknown;
  try {
    returned = route.verify(context);
    result = isThenable(returned)
      ? await beforeDeadline(Promise.resolve(returned), deadline)
      : returned;
  } catch (error) {
    config.report(error, { ...info, reason: 'handler_error' });
    return { reason: 'handler_error', message: messages.handlerError, claim };
  }
  if (result === TIMED_OUT) {
    context.expire();
    void reportLate(returned, (error) => config.report(error, { ...info, reason: 'timeout' }));
    return { reason: 'timeout', message: messages.timeout, claim };
  }
  if (!isVerifyResult(result)) {
    const error = new TypeError('[@questkit/core] verify() must return ok() or fail()');
    config.report(error, { ...info, reason: 'handler_error' });
    return { reason: 'handler_error', message: messages.handlerError, claim };
  }
  return { reason: result.claimed ? 'ok' : 'failed', message: result.message, claim };
}

/**
 * What a handler receives. Its signal is made when the handler first reads it: a handler that
 * answers at once never does, and an `AbortController` was the largest cost of such a claim
 * (bench/README.md, "Where the time goes"). Nothing the handler can observe depends on when.
 */
class HandlerContext implements VerifyContext<IdentificationMethod> {
  readonly claim: VerificationRequest;
  readonly accounts: VerifyContext<IdentificationMethod>['accounts'];
  readonly requestId: string;
  readonly deadline: number;
  #controller: AbortController | undefined;

  constructor(claim: VerificationRequest, deadline: number) {
    this.claim = claim;
    this.accounts = (claim.accounts ?? {}) as VerifyContext<IdentificationMethod>['accounts'];
    this.requestId = claim.requestId;
    this.deadline = deadline;
  }

  /** Aborted when the deadline passes; read after it, already aborted. */
  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    return this.#controller.signal;
  }

  /** The deadline passed: the signal the handler holds, or will read, is aborted. */
  expire(): void {
    this.#controller ??= new AbortController();
    this.#controller.abort(new DOMException('The verification deadline passed', 'TimeoutError'));
  }
}

/** A handler past its deadline is heard of once it settles; its result is never written. */
async function reportLate(returned: unknown, report: (error: unknown) => void): Promise<void> {
  try {
    await returned;
    report(
      new Error('[@questkit/core] verify() settled after the deadline; its result was discarded'),
    );
  } catch (error) {
    report(error);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as PromiseLike<unknown>).then === 'function'
  );
}
