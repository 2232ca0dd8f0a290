import type { DoorEndpoint } from '../adapter/door.js';
import type { NodeRequest, NodeResponse } from '../adapter/node.js';
import type { MaybePromise } from '../maybe-promise.js';
import type { Reason, VerifierMessages } from '../reasons.js';
import type { VerifyResult } from '../results.js';
import type { Accounts, VerificationRequest } from '../schemas/verification.js';
import type { IdentificationMethod } from '../schemas/verification-constants.js';

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
) => MaybePromise<VerifyResult>;

/** One quest of a multi-quest endpoint: the accounts it needs and its handler. */
export interface QuestRoute<R extends IdentificationMethod = IdentificationMethod> {
  requires?: readonly R[];
  verify: VerifyHandler<R>;
}

/** What `onError` is told besides the error itself. */
export interface ErrorInfo {
  /**
   * `handler_error`, `timeout` for a handler that settled after the deadline, `hook_error` for an
   * `onResult` that threw, or `write_error` when writing the answer failed (the client left).
   */
  reason: 'handler_error' | 'timeout' | 'hook_error' | 'write_error';
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
  /** Replaces any of the member-facing messages of `DEFAULT_MESSAGES` (exported by `@questkit/core`). */
  messages?: Partial<VerifierMessages>;
  /** Internal errors: a handler that throws, returns garbage or settles late. Default: console.error. */
  onError?: (error: unknown, info: ErrorInfo) => void;
  /** Every answer, with its reason code: for logs and metrics. */
  onResult?: (event: ResultEvent) => void;
}

/** An answer, decided from plain data. */
export interface Decision {
  status: 200 | 400;
  body: { message: string };
  reason: Reason;
}

/** A request as plain data, for {@link Verifier.decide}. */
export interface ClaimInput {
  /** The HTTP method; omitted means POST. */
  method?: string;
  /** Request headers: Web `Headers`, or a record by lower-case name. */
  headers: Headers | { readonly [name: string]: string | readonly string[] | undefined };
  /** The raw body: text, bytes, or a stream still to read. */
  body?:
    | string
    | Uint8Array
    | ReadableStream<Uint8Array>
    | AsyncIterable<Uint8Array | string>
    | null;
  /** When the request arrived (`Date.now()`); defaults to now. The deadline counts from it. */
  receivedAt?: number;
}

/** A verification endpoint, independent of any framework. */
export interface Verifier extends DoorEndpoint {
  /** Decides a request given as plain data; never throws, always 200 or 400 with a message. */
  decide(input: ClaimInput): Promise<Decision>;
  /** The same endpoint as a Web handler: `(Request) => Promise<Response>`. */
  fetch(request: Request): Promise<Response>;
  /**
   * The same endpoint as a Node request listener, `http.createServer(verifier.node)`: it reads
   * the body itself (so nothing may have read it before) and writes the answer.
   */
  node(request: NodeRequest, response: NodeResponse): Promise<void>;
}
