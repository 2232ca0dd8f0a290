import { beforeDeadline, TIMED_OUT } from '../front-door/index.js';
import { isVerifyResult } from '../results.js';
import type { VerificationRequest } from '../schemas/verification.js';
import type { IdentificationMethod } from '../schemas/verification-constants.js';
import type { Route, VerifierConfig } from './options.js';
import type { Outcome } from './outcome.js';
import type { VerifyContext } from './types.js';

/**
 * Step 9: the handler. One that answers at once is decided at once: no timer, no promise. One that
 * returns a promise is raced against the deadline ({@link settle}). Past the deadline its signal
 * aborts, and whatever it does later is reported, never written: one answer only.
 */
export function runHandler(
  config: VerifierConfig,
  route: Route,
  claim: VerificationRequest,
  deadline: number,
): Outcome | Promise<Outcome> {
  const context = new HandlerContext(claim, deadline);
  let returned: unknown;
  let thenable: boolean;
  try {
    returned = route.verify(context);
    // Inside the try: reading `then` runs the handler's own code when it is a getter.
    thenable = isThenable(returned);
  } catch (error) {
    return handlerError(config, claim, error);
  }
  return thenable
    ? settle(config, claim, context, returned as PromiseLike<unknown>, deadline)
    : outcomeOf(config, claim, returned);
}

/** A handler's promise, raced against the deadline. */
async function settle(
  config: VerifierConfig,
  claim: VerificationRequest,
  context: HandlerContext,
  returned: PromiseLike<unknown>,
  deadline: number,
): Promise<Outcome> {
  let result: unknown;
  try {
    result = await beforeDeadline(Promise.resolve(returned), deadline);
  } catch (error) {
    return handlerError(config, claim, error);
  }
  if (result === TIMED_OUT) {
    context.expire();
    void reportLate(returned, (error) =>
      config.report(error, {
        requestId: claim.requestId,
        questId: claim.questId,
        reason: 'timeout',
      }),
    );
    return { reason: 'timeout', message: config.messages.timeout, claim };
  }
  return outcomeOf(config, claim, result);
}

/** What the handler's result decides: `ok()` or `fail()`, anything else is the handler's error. */
function outcomeOf(config: VerifierConfig, claim: VerificationRequest, result: unknown): Outcome {
  if (!isVerifyResult(result)) {
    return handlerError(
      config,
      claim,
      new TypeError('[@questkit/core] verify() must return ok() or fail()'),
    );
  }
  return { reason: result.claimed ? 'ok' : 'failed', message: result.message, claim };
}

function handlerError(config: VerifierConfig, claim: VerificationRequest, error: unknown): Outcome {
  config.report(error, {
    requestId: claim.requestId,
    questId: claim.questId,
    reason: 'handler_error',
  });
  return { reason: 'handler_error', message: config.messages.handlerError, claim };
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
