import { matchApiKey, prepareApiKeys } from './api-key.js';
import { type BodySource, readBodyInto, textFits } from './body.js';
import { type ParsedClaim, parseClaimBytes, parseClaimText, validateClaim } from './claim.js';
import { startDeadline, TIMED_OUT } from './deadline.js';
import { getHeader, type HeaderSource } from './headers.js';
import { normalizeMessage } from './messages.js';
import { bodyPending, type NodeRequest, type NodeResponse } from './node-listener.js';
import { DEFAULT_MESSAGES, type Reason, type VerifierMessages } from './reasons.js';
import { isVerifyResult, type VerifyResult } from './results.js';
import {
  type Accounts,
  IDENTIFICATION_METHODS,
  type IdentificationMethod,
  PLATFORM_TIMEOUT_MS,
  type VerificationRequest,
} from './schemas/verification.js';

/** Default handler budget: well under the platform's 10 s, leaving room for the network. */
export const DEFAULT_TIMEOUT_MS = 8_000;
/** Default body limit. A claim is a few hundred bytes; this leaves room for long account names. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/** `Accounts` where the methods in `R` are known to be present. */
export type AccountsWith<R extends IdentificationMethod> = Accounts & {
  [K in R]-?: NonNullable<Accounts[K]>;
};

/** What a verify handler receives. */
export interface VerifyContext<R extends IdentificationMethod = never> {
  /** The claim as the platform sent it, validated (unknown keys dropped). */
  claim: VerificationRequest;
  /** The member's accounts; the ones in `requires` are guaranteed present. */
  accounts: AccountsWith<R>;
  /** The platform's id of this claim; it shows it to the member with a failure message. */
  requestId: string;
  /** Aborted when the deadline passes: hand it to `fetch` and database calls. */
  signal: AbortSignal;
  /** The deadline as a `Date.now()` timestamp. */
  deadline: number;
}

/** Decides one claim: return {@link ok} or {@link fail}; throwing is answered as a 400. */
export type VerifyHandler<R extends IdentificationMethod = never> = (
  ctx: VerifyContext<R>,
) => VerifyResult | Promise<VerifyResult>;

/** One quest of a multi-quest endpoint: the accounts it needs and its handler. */
export interface QuestRoute<R extends IdentificationMethod = IdentificationMethod> {
  requires?: readonly R[];
  verify: VerifyHandler<R>;
}

/** What `onError` is told besides the error itself. */
export interface ErrorInfo {
  /** `handler_error`, `timeout` for a handler that settled after the deadline, or `hook_error`. */
  reason: 'handler_error' | 'timeout' | 'hook_error';
  requestId?: string;
  questId?: string;
}

/** What `onResult` is told of every answer. Never carries a secret. */
export interface ResultEvent {
  reason: Reason;
  status: 200 | 400;
  message: string;
  requestId?: string;
  questId?: string;
  userId?: string;
  durationMs: number;
}

/** Options of {@link createVerifier}. */
export interface VerifierOptions<R extends IdentificationMethod = never> {
  /**
   * The API key(s) the platform sends in `X-Api-Key`; several during a rotation. `false` runs
   * without a key check, which lets anyone claim: only for local development.
   */
  apiKey: string | readonly string[] | false;
  /** The handler; with `quests`, the handler of quests not listed there. */
  verify?: VerifyHandler<R>;
  /** One handler per questId, for an endpoint that serves several quests. */
  quests?: Readonly<Record<string, VerifyHandler | QuestRoute>>;
  /** Accounts every claim must carry, else a 400 telling the member what to link. */
  requires?: readonly R[];
  /** Budget from the request's arrival to the answer; default 8000, at most 9999. */
  timeoutMs?: number;
  /** Largest body accepted, in bytes; default 64 KiB. */
  maxBodyBytes?: number;
  /** Replaces any of the member-facing messages of {@link DEFAULT_MESSAGES}. */
  messages?: Partial<VerifierMessages>;
  /** Internal errors: a handler that throws, returns garbage or settles late. Default: console.error. */
  onError?: (error: unknown, info: ErrorInfo) => void;
  /** Every answer, with its reason code: for logs and metrics. */
  onResult?: (event: ResultEvent) => void;
}

/** An answer, decided from plain data; adapters write it as they like. */
export interface Decision {
  status: 200 | 400;
  body: { message: string };
  reason: Reason;
  headers: Readonly<Record<string, string>>;
}

/** A request as an adapter holds it. */
export interface ClaimInput {
  /** The HTTP method; omitted means POST. */
  method?: string;
  headers: HeaderSource;
  /** The raw body: bytes, text, or a stream still to read (a Node request, a Web stream). */
  body?: BodySource | null;
  /** A body a framework parser already turned into JSON; used when present as a key. */
  parsed?: unknown;
  /** When the request arrived (`Date.now()`); defaults to now. The deadline counts from it. */
  receivedAt?: number;
  /**
   * The body already failed before core saw it (a framework parser refused it as too large, or
   * could not read it): answered with core's own message once the method and key are checked.
   */
  bodyError?: 'body_too_large' | 'unreadable_body';
  /**
   * Set only when `precheck()` already passed for this very request (as adapters do before
   * reading the body): the method, key and declared length are then not checked twice.
   */
  prechecked?: boolean;
}

/** A verification endpoint, independent of any framework. */
export interface Verifier {
  /** Decides a request from plain data; never throws, always 200 or 400 with a message. */
  decide(input: ClaimInput): Promise<Decision>;
  /**
   * {@link Verifier.decide} for adapters: hands the decision to `done`, exactly once, at once
   * when the input allows and else when the body is read and the handler settled. No promise
   * sits in between, which shows on every request of a fast server.
   */
  decideThen(input: ClaimInput, done: (decision: Decision) => void): void;
  /**
   * Checks what can be checked before the body is read (method, API key, declared length), so
   * adapters can refuse early. Returns the answer to send, or `undefined` to go on.
   */
  precheck(input: Pick<ClaimInput, 'method' | 'headers' | 'receivedAt'>): Decision | undefined;
  /** The same endpoint as a Web handler: `(Request) => Promise<Response>`. */
  fetch(request: Request): Promise<Response>;
  /**
   * The same endpoint as a Node request listener, `http.createServer(verifier.node)`: it reads
   * the body itself (so nothing may have read it before) and writes the answer.
   */
  node(request: NodeRequest, response: NodeResponse): void;
}

// No cache-control: an answer to a POST is never cached without explicit freshness, and a 400 is
// not cacheable by default, so `no-store` would only cost bytes and a header check per answer.
const RESPONSE_HEADERS = Object.freeze({ 'content-type': 'application/json; charset=utf-8' });

interface Outcome {
  reason: Reason;
  message: string;
  claim?: VerificationRequest;
}

/**
 * Builds a verification endpoint that keeps the platform's contract for every input: it answers
 * only 200 or 400 with a JSON `{message}`, before the deadline, with the API key compared in
 * constant time.
 *
 * @example
 * const verifier = createVerifier({
 *   apiKey: process.env.QUEST_API_KEY!,
 *   requires: ['email'],
 *   verify: async ({ accounts }) =>
 *     (await isSubscribed(accounts.email)) ? ok('Thanks for subscribing!') : fail('Subscribe first.'),
 * });
 * export default { fetch: verifier.fetch };
 */
export function createVerifier<const R extends IdentificationMethod = never>(
  options: VerifierOptions<R>,
): Verifier {
  const keys =
    options.apiKey === false ? undefined : prepareApiKeys(readApiKeyOption(options.apiKey));
  const timeoutMs = readNumberOption(
    'timeoutMs',
    options.timeoutMs,
    DEFAULT_TIMEOUT_MS,
    1,
    PLATFORM_TIMEOUT_MS - 1,
  );
  const maxBodyBytes = readNumberOption(
    'maxBodyBytes',
    options.maxBodyBytes,
    DEFAULT_MAX_BODY_BYTES,
    1,
    2 ** 30,
  );
  const requires = readRequires('requires', options.requires);
  const routes = readRoutes(options as VerifierOptions<IdentificationMethod>);
  const defaultRoute = routes.get(DEFAULT_ROUTE);
  // An endpoint without `quests` routes every claim to `verify`: no lookup by questId then.
  const routeByQuest = routes.size > (defaultRoute ? 1 : 0);
  const messages = readMessages(options.messages);
  const onError = options.onError ?? defaultOnError;

  const report = (error: unknown, info: ErrorInfo) => {
    try {
      onError(error, info);
    } catch {
      // A broken error hook must not change the answer.
    }
  };

  const finish = (outcome: Outcome, receivedAt: number): Decision => {
    const status = outcome.reason === 'ok' ? 200 : 400;
    const decision: Decision = {
      status,
      body: { message: outcome.message },
      reason: outcome.reason,
      headers: RESPONSE_HEADERS,
    };
    if (options.onResult) {
      try {
        options.onResult({
          reason: outcome.reason,
          status,
          message: outcome.message,
          requestId: outcome.claim?.requestId,
          questId: outcome.claim?.questId,
          userId: outcome.claim?.userId,
          durationMs: Date.now() - receivedAt,
        });
      } catch (error) {
        report(error, { reason: 'hook_error', requestId: outcome.claim?.requestId });
      }
    }
    return decision;
  };

  const precheckOutcome = (input: Pick<ClaimInput, 'method' | 'headers'>): Outcome | undefined => {
    const method = input.method;
    if (method !== undefined && method !== 'POST' && method.toUpperCase() !== 'POST') {
      return { reason: 'method_not_allowed', message: messages.methodNotAllowed };
    }
    if (keys) {
      const received = getHeader(input.headers, 'x-api-key');
      if (received === null || received === '')
        return { reason: 'missing_key', message: messages.missingKey };
      if (!matchApiKey(received, keys)) return { reason: 'bad_key', message: messages.badKey };
    }
    const declared = Number(getHeader(input.headers, 'content-length') ?? 0);
    if (declared > maxBodyBytes)
      return { reason: 'body_too_large', message: messages.bodyTooLarge };
    return undefined;
  };

  // Defined once, not per claim: the happy path allocates no closures.
  const handlerError = (error: unknown, claim: VerificationRequest): Outcome => {
    report(error, { requestId: claim.requestId, questId: claim.questId, reason: 'handler_error' });
    return { reason: 'handler_error', message: messages.handlerError, claim };
  };
  const judge = (result: unknown, claim: VerificationRequest): Outcome =>
    isVerifyResult(result)
      ? { reason: result.claimed ? 'ok' : 'failed', message: result.message, claim }
      : handlerError(new TypeError('[@questkit/core] verify() must return ok() or fail()'), claim);

  const runHandler = (claim: VerificationRequest, deadline: number): Outcome | Promise<Outcome> => {
    const route = routeByQuest ? (routes.get(claim.questId) ?? defaultRoute) : defaultRoute;
    if (!route) return { reason: 'unknown_quest', message: messages.unknownQuest, claim };

    const accounts = claim.accounts ?? {};
    const missing = missingAccounts(accounts, requires, route.requires);
    if (missing.length > 0) {
      return {
        reason: 'missing_account',
        message: messages.missingAccount.replace('{accounts}', listAccounts(missing)),
        claim,
      };
    }

    if (deadline <= Date.now()) return { reason: 'timeout', message: messages.timeout, claim };
    const context = new HandlerContext(claim, accounts, deadline);
    let returned: unknown;
    try {
      returned = route.verify(context as unknown as VerifyContext<IdentificationMethod>);
    } catch (error) {
      return handlerError(error, claim);
    }
    // A synchronous answer needs no race against the clock.
    if (!isThenable(returned)) return judge(returned, claim);
    return raceHandler(Promise.resolve(returned), context);
  };

  const raceHandler = async (
    settled: Promise<unknown>,
    context: HandlerContext,
  ): Promise<Outcome> => {
    const { claim, deadline } = context;
    const timer = startDeadline(deadline);
    try {
      const result = await Promise.race([settled, timer.passed]);
      if (result !== TIMED_OUT) return judge(result, claim);
      context.expire();
      // One answer only: whatever the handler does later is reported, never written.
      const info = {
        requestId: claim.requestId,
        questId: claim.questId,
        reason: 'timeout',
      } as const;
      settled.then(
        () =>
          report(
            new Error(
              '[@questkit/core] verify() settled after the deadline; its result was discarded',
            ),
            info,
          ),
        (error: unknown) => report(error, info),
      );
      return { reason: 'timeout', message: messages.timeout, claim };
    } catch (error) {
      return handlerError(error, claim);
    } finally {
      timer.clear();
    }
  };

  const afterParse = (
    parsed: ParsedClaim,
    deadline: number,
    receivedAt: number,
  ): Decision | Promise<Decision> => {
    if (!parsed.ok) {
      const message =
        parsed.reason === 'bad_json'
          ? messages.badJson
          : normalizeMessage(
              messages.invalidRequest.replace('{detail}', parsed.detail),
              messages.badJson,
            );
      return finish({ reason: parsed.reason, message }, receivedAt);
    }
    const outcome = runHandler(parsed.claim, deadline);
    return outcome instanceof Promise
      ? outcome.then((settled) => finish(settled, receivedAt))
      : finish(outcome, receivedAt);
  };

  // Unreachable by design; kept so that even a bug in questkit answers 400, not a crash.
  const internalError = (error: unknown): Decision => {
    report(error, { reason: 'handler_error' });
    return finish({ reason: 'handler_error', message: messages.handlerError }, Date.now());
  };

  /** Hands a decision to `done`, now or once it settles; `done` runs exactly once. */
  const deliver = (decision: Decision | Promise<Decision>, done: (d: Decision) => void): void => {
    if (decision instanceof Promise) decision.then(done, (error) => done(internalError(error)));
    else done(decision);
  };

  /** The decision when no body is left to read, else `undefined`. */
  const decideWithoutReading = (
    input: ClaimInput,
    receivedAt: number,
    deadline: number,
  ): Decision | Promise<Decision> | undefined => {
    const early = input.prechecked === true ? undefined : precheckOutcome(input);
    if (early) return finish(early, receivedAt);
    if (input.bodyError) {
      return finish(
        { reason: input.bodyError, message: messageOf(input.bodyError, messages) },
        receivedAt,
      );
    }
    const body = input.body;
    if ('parsed' in input && body == null) {
      return afterParse(validateClaim(input.parsed), deadline, receivedAt);
    }
    if (typeof body !== 'string') return undefined;
    // Text needs no stream, no timer and no round trip through bytes.
    if (!textFits(body, maxBodyBytes)) {
      return finish({ reason: 'body_too_large', message: messages.bodyTooLarge }, receivedAt);
    }
    return afterParse(parseClaimText(body), deadline, receivedAt);
  };

  // Callbacks, not promises, from the request to the answer: each `await` of a settled step
  // still costs a trip through the microtask queue, a measurable share of a claim's decision.
  const decideInto = (input: ClaimInput, done: (decision: Decision) => void): void => {
    const receivedAt = input.receivedAt ?? Date.now();
    const deadline = receivedAt + timeoutMs;
    const decision = decideWithoutReading(input, receivedAt, deadline);
    if (decision !== undefined) {
      deliver(decision, done);
      return;
    }
    readBodyInto(input.body, { maxBytes: maxBodyBytes, deadline }, (read) => {
      let decision: Decision | Promise<Decision>;
      try {
        decision = read.ok
          ? afterParse(parseClaimBytes(read.bytes), deadline, receivedAt)
          : finish({ reason: read.reason, message: messageOf(read.reason, messages) }, receivedAt);
      } catch (error) {
        decision = internalError(error);
      }
      deliver(decision, done);
    });
  };

  // `done` runs exactly once. An internal error before it ran is answered; a throw from `done`
  // itself (writing the answer failed) is not answered twice but left to propagate.
  const decideGuarded = (input: ClaimInput, done: (decision: Decision) => void): void => {
    let called = false;
    try {
      decideInto(input, (decision) => {
        called = true;
        done(decision);
      });
    } catch (error) {
      if (called) throw error;
      done(internalError(error));
    }
  };

  const node = (request: NodeRequest, response: NodeResponse): void => {
    const input = { method: request.method, headers: request.headers, body: request };
    decideGuarded(input, (decision) => {
      response.statusCode = decision.status;
      for (const name in decision.headers) response.setHeader(name, decision.headers[name]!);
      // Core stopped reading at the limit or the deadline: the rest of the body is still on the
      // wire, and must not be read as the next request of a kept-alive connection.
      if (bodyPending(request)) response.setHeader('connection', 'close');
      // Headers set one by one, not through writeHead: Node then adds the content-length itself.
      response.end(JSON.stringify(decision.body));
    });
  };

  const decide = (input: ClaimInput): Promise<Decision> =>
    new Promise((resolve) => decideGuarded(input, resolve));

  return {
    decide,
    decideThen: decideGuarded,
    node,
    precheck: (input) => {
      const early = precheckOutcome(input);
      return early && finish(early, input.receivedAt ?? Date.now());
    },
    fetch: async (request) => {
      const decision = await decide({
        method: request.method,
        headers: request.headers,
        body: request.body,
        receivedAt: Date.now(),
      });
      return toResponse(decision);
    },
  };
}

/** Writes a decision as a Web `Response`. */
export function toResponse(decision: Decision): Response {
  // A fresh headers object: some runtimes' Response (e.g. @hono/node-server's) writes into it.
  return new Response(JSON.stringify(decision.body), {
    status: decision.status,
    headers: { ...decision.headers },
  });
}

const DEFAULT_ROUTE = Symbol('default route');

/**
 * What a handler receives. A class, not an object literal with a getter: the literal costs
 * hundreds of nanoseconds a claim. The signal is made on first use, since most handlers never
 * read it and an AbortSignal costs microseconds.
 */
class HandlerContext {
  readonly requestId: string;
  #controller: AbortController | undefined;
  #expired = false;

  constructor(
    readonly claim: VerificationRequest,
    readonly accounts: Accounts,
    readonly deadline: number,
  ) {
    this.requestId = claim.requestId;
  }

  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    if (this.#expired && !this.#controller.signal.aborted) this.#controller.abort(deadlineError());
    return this.#controller.signal;
  }

  /** The deadline passed: a signal handed out is aborted, one asked for later comes aborted. */
  expire(): void {
    this.#expired = true;
    this.#controller?.abort(deadlineError());
  }
}

interface Route {
  requires: ReadonlySet<IdentificationMethod>;
  verify: VerifyHandler<IdentificationMethod>;
}

function readRoutes(options: VerifierOptions<IdentificationMethod>): Map<string | symbol, Route> {
  const routes = new Map<string | symbol, Route>();
  if (options.verify !== undefined) {
    if (typeof options.verify !== 'function')
      throw new TypeError('[@questkit/core] verify must be a function');
    routes.set(DEFAULT_ROUTE, { requires: new Set(), verify: options.verify });
  }
  for (const [questId, entry] of Object.entries(options.quests ?? {})) {
    const route = typeof entry === 'function' ? { verify: entry } : entry;
    if (typeof route?.verify !== 'function') {
      throw new TypeError(
        `[@questkit/core] quests["${questId}"] must be a function or { verify, requires? }`,
      );
    }
    routes.set(questId, {
      requires: readRequires(`quests["${questId}"].requires`, route.requires),
      verify: route.verify as VerifyHandler<IdentificationMethod>,
    });
  }
  if (routes.size === 0) throw new TypeError('[@questkit/core] verify or quests is required');
  return routes;
}

function readApiKeyOption(apiKey: unknown): string | readonly string[] {
  if (
    apiKey === undefined ||
    apiKey === null ||
    apiKey === '' ||
    (Array.isArray(apiKey) && apiKey.length === 0)
  ) {
    throw new TypeError(
      '[@questkit/core] apiKey is required: pass the key of the task, a list of keys, or false to run without one',
    );
  }
  return apiKey as string | readonly string[];
}

function readNumberOption(
  name: string,
  value: number | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new TypeError(`[@questkit/core] ${name} must be a number from ${min} to ${max}`);
  }
  return value;
}

function readRequires(
  name: string,
  value: readonly string[] | undefined,
): ReadonlySet<IdentificationMethod> {
  for (const method of value ?? []) {
    if (!(IDENTIFICATION_METHODS as readonly string[]).includes(method)) {
      throw new TypeError(
        `[@questkit/core] ${name}: unknown identification method "${method}" (use ${IDENTIFICATION_METHODS.join(', ')})`,
      );
    }
  }
  return new Set(value as readonly IdentificationMethod[] | undefined);
}

/** Normalizes every message once, so a custom one cannot carry control characters or be empty. */
function readMessages(custom: Partial<VerifierMessages> | undefined): VerifierMessages {
  const messages = { ...DEFAULT_MESSAGES };
  for (const key of Object.keys(messages) as (keyof VerifierMessages)[]) {
    messages[key] = normalizeMessage(custom?.[key], DEFAULT_MESSAGES[key]);
  }
  return messages;
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

function missingAccounts(
  accounts: Accounts,
  required: ReadonlySet<IdentificationMethod>,
  requiredByQuest: ReadonlySet<IdentificationMethod>,
): readonly IdentificationMethod[] {
  // Most endpoints require nothing: no list to build then.
  if (required.size === 0 && requiredByQuest.size === 0) return NOTHING_MISSING;
  return IDENTIFICATION_METHODS.filter(
    (method) =>
      (required.has(method) || requiredByQuest.has(method)) && !hasAccount(accounts, method),
  );
}

const NOTHING_MISSING: readonly IdentificationMethod[] = Object.freeze([]);

function hasAccount(accounts: Accounts, method: IdentificationMethod): boolean {
  const value = accounts[method];
  if (typeof value === 'string') return value.trim() !== '';
  return value !== undefined;
}

const ACCOUNT_LABELS: Record<IdentificationMethod, string> = {
  email: 'email address',
  wallet: 'wallet',
  discord: 'Discord account',
  twitter: 'X (Twitter) account',
  'svc-connect': 'community account (Connect)',
};

function listAccounts(methods: readonly IdentificationMethod[]): string {
  const labels = methods.map((method) => ACCOUNT_LABELS[method]);
  return labels.length === 1
    ? labels[0]!
    : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
}

function messageOf(
  reason: 'body_too_large' | 'unreadable_body' | 'timeout',
  messages: VerifierMessages,
): string {
  if (reason === 'body_too_large') return messages.bodyTooLarge;
  return reason === 'timeout' ? messages.timeout : messages.unreadableBody;
}

function defaultOnError(error: unknown, info: ErrorInfo): void {
  console.error(
    `[@questkit/core] ${info.reason}${info.requestId ? ` (requestId ${info.requestId})` : ''}:`,
    error,
  );
}

/**
 * Types one entry of `quests` so that its handler sees the accounts it requires as present.
 *
 * @example
 * createVerifier({
 *   apiKey: 'key',
 *   quests: {
 *     'quest-a': defineQuest({ requires: ['discord'], verify: ({ accounts }) => ok(accounts.discord.handle) }),
 *   },
 * });
 */
export function defineQuest<const R extends IdentificationMethod = never>(
  route: QuestRoute<R>,
): QuestRoute<R> {
  return route;
}
