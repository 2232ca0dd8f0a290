import type { DoorRequest } from '../adapter/door.js';
import { type ParsedClaim, parseClaimText, validateClaim } from '../claim.js';
import {
  type BodyRead,
  beforeDeadline,
  type FrontDoor,
  frontDoor,
  TIMED_OUT,
} from '../front-door/index.js';
import type { MaybePromise } from '../maybe-promise.js';
import { normalizeMessage } from '../messages.js';
import type { Reason } from '../reasons.js';
import { isVerifyResult } from '../results.js';
import type { IdentificationMethod, VerificationRequest } from '../schemas/verification.js';
import { matchSecret } from '../secrets.js';
import { listAccounts, missingAccounts } from './accounts.js';
import type { Route, VerifierConfig } from './options.js';
import type { VerifyContext } from './types.js';

/** What the pipeline decided about one request, before it is written as an answer. */
export interface Outcome {
  reason: Reason;
  message: string;
  claim?: VerificationRequest;
  /** Part of the body may still be on the wire: the answer closes the connection. */
  close: boolean;
}

/**
 * The steps of the platform's contract, in order: method, key, declared length, read, parse,
 * validate, route, accounts, handler under the deadline. Each refusal is an outcome; nothing
 * here throws for a bad request. A promise only while something is awaited: the body, or a
 * handler that returns one.
 */
export function decideClaim(config: VerifierConfig, request: DoorRequest): MaybePromise<Outcome> {
  const { messages } = config;
  const door = frontDoor(request, config.timeoutMs);
  // 1. Method: the platform only POSTs.
  if (door.method !== 'POST') {
    return refuse(door, 'method_not_allowed', messages.methodNotAllowed);
  }
  // 2. Key, before any byte of the body is read.
  if (config.keys) {
    const received = request.header('x-api-key');
    if (received === undefined || received === '')
      return refuse(door, 'missing_key', messages.missingKey);
    if (!matchSecret(received, config.keys)) return refuse(door, 'bad_key', messages.badKey);
  }
  // 3-4. Read: a declared length over the limit is refused unread, the rest read within the size
  // limit and the deadline.
  return door.read(config.maxBodyBytes).then((read) => decideBody(config, door, read));
}

/** Steps 5 to 9, once the body is read. */
function decideBody(
  config: VerifierConfig,
  door: FrontDoor,
  read: BodyRead,
): MaybePromise<Outcome> {
  const { messages } = config;
  if (!read.ok) {
    if (read.reason === 'too_large') return refuse(door, 'body_too_large', messages.bodyTooLarge);
    if (read.reason === 'timeout') return refuse(door, 'timeout', messages.timeout);
    if (read.reason === 'bad_encoding') return refuse(door, 'bad_json', messages.badJson);
    return refuse(door, 'unreadable_body', messages.unreadableBody);
  }
  // 5-6. Parse and validate: a missing or mistyped field is named.
  const parsed: ParsedClaim =
    'parsed' in read ? validateClaim(read.parsed) : parseClaimText(read.text);
  if (!parsed.ok) {
    if (parsed.reason === 'bad_json') return refuse(door, 'bad_json', messages.badJson);
    const text = messages.invalidRequest.replace('{detail}', parsed.detail);
    return refuse(door, 'invalid_request', normalizeMessage(text, messages.badJson));
  }
  const { claim } = parsed;
  // 7. Route by quest.
  const route = config.routes.get(claim.questId) ?? config.fallback;
  if (!route) return refuse(door, 'unknown_quest', messages.unknownQuest, claim);
  // 8. The accounts this quest needs.
  const missing = missingAccounts(claim.accounts ?? {}, route.requires);
  if (missing.length > 0) {
    const text = messages.missingAccount.replace('{accounts}', listAccounts(missing));
    return refuse(door, 'missing_account', text, claim);
  }
  // 9. The handler, under the deadline (none is left when reading the body took it all).
  if (Date.now() >= door.deadline) return refuse(door, 'timeout', messages.timeout, claim);
  return runHandler(config, route, claim, door.deadline);
}

/** A refusal; a promise only while the front door drains what is left of the body. */
function refuse(
  door: FrontDoor,
  reason: Reason,
  message: string,
  claim?: VerificationRequest,
): MaybePromise<Outcome> {
  const close = door.close();
  if (typeof close === 'boolean') return { reason, message, claim, close };
  return close.then((settled) => ({ reason, message, claim, close: settled }));
}

// Not async, and the error path's objects made only on error: a handler that answers at once is
// judged at once. In `pnpm bench` this took node:http from 0.72 to 0.84 of a hand-written
// endpoint's req/s (with the early return of missingAccounts).
function runHandler(
  config: VerifierConfig,
  route: Route,
  claim: VerificationRequest,
  deadline: number,
): MaybePromise<Outcome> {
  const context = new HandlerContext(claim, deadline);
  let returned: unknown;
  try {
    returned = route.verify(context);
  } catch (error) {
    return handlerError(config, claim, error);
  }
  // A handler that answers at once needs no race against the clock: in `pnpm bench` the timer
  // and the promises of the race cost node:http about 6 % of its req/s.
  if (!isThenable(returned)) return judge(config, returned, claim);
  return raceDeadline(config, Promise.resolve(returned), claim, deadline, () => context.expire());
}

/**
 * What a handler is handed. The signal is made when a handler first reads it: most never do, and
 * in `pnpm bench` making one per claim cost node:http 1.6 µs of its 15 µs a request (about 10 %).
 * A class, with `signal` a getter on its prototype, not an object literal with a getter: V8 builds
 * such a literal in its runtime, 2.2 µs a claim on Node 24 and 1.7 µs on Node 20 against 0.1 µs
 * for the class (a loop of 2 million). In CPU profiles of `pnpm bench --node 24` that literal was
 * 2.7 to 3.7 µs of node:http's 100 µs a request and 4 to 5 µs of Hono's 300 to 350 µs (self
 * time); with the class it is gone from the profiles. `signal` is read through the prototype, as a property of a Web `Request`
 * is: destructuring `{ signal }` works, spreading the context leaves it out.
 */
class HandlerContext implements VerifyContext<IdentificationMethod> {
  readonly claim: VerificationRequest;
  readonly accounts: VerifyContext<IdentificationMethod>['accounts'];
  readonly requestId: string;
  readonly deadline: number;
  #controller: AbortController | undefined;
  #expired = false;

  constructor(claim: VerificationRequest, deadline: number) {
    this.claim = claim;
    this.accounts = (claim.accounts ?? {}) as VerifyContext<IdentificationMethod>['accounts'];
    this.requestId = claim.requestId;
    this.deadline = deadline;
  }

  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    if (this.#expired) this.#controller.abort(deadlineError());
    return this.#controller.signal;
  }

  /** The deadline passed: a signal already handed out aborts, one read later is born aborted. */
  expire(): void {
    this.#expired = true;
    this.#controller?.abort(deadlineError());
  }
}

async function raceDeadline(
  config: VerifierConfig,
  settled: Promise<unknown>,
  claim: VerificationRequest,
  deadline: number,
  expire: () => void,
): Promise<Outcome> {
  const { messages } = config;
  const info = { requestId: claim.requestId, questId: claim.questId } as const;
  let result: unknown;
  try {
    result = await beforeDeadline(settled, deadline);
  } catch (error) {
    return handlerError(config, claim, error);
  }
  if (result !== TIMED_OUT) return judge(config, result, claim);
  expire();
  // One answer only: whatever the handler does later is reported, never written.
  settled.then(
    () =>
      report(
        config,
        new Error('[@questkit/core] verify() settled after the deadline; its result was discarded'),
        { ...info, reason: 'timeout' },
      ),
    (error: unknown) => report(config, error, { ...info, reason: 'timeout' }),
  );
  return { reason: 'timeout', message: messages.timeout, claim, close: false };
}

function handlerError(config: VerifierConfig, claim: VerificationRequest, error: unknown): Outcome {
  report(config, error, {
    requestId: claim.requestId,
    questId: claim.questId,
    reason: 'handler_error',
  });
  return { reason: 'handler_error', message: config.messages.handlerError, claim, close: false };
}

function judge(config: VerifierConfig, result: unknown, claim: VerificationRequest): Outcome {
  if (!isVerifyResult(result)) {
    return handlerError(
      config,
      claim,
      new TypeError('[@questkit/core] verify() must return ok() or fail()'),
    );
  }
  return {
    reason: result.claimed ? 'ok' : 'failed',
    message: result.message,
    claim,
    close: false,
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as PromiseLike<unknown>).then === 'function'
  );
}

function deadlineError(): DOMException {
  return new DOMException('The verification deadline passed', 'TimeoutError');
}

/** Calls `onError`; a hook that throws must not change the answer. */
export function report(
  config: VerifierConfig,
  error: unknown,
  info: Parameters<VerifierConfig['onError']>[1],
): void {
  try {
    config.onError(error, info);
  } catch {
    // Ignored on purpose: see above.
  }
}
