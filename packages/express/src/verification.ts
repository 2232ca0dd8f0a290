import {
  bodyPending,
  type ClaimInput,
  createVerifier,
  type Decision,
  type IdentificationMethod,
  type Verifier,
  type VerifierOptions,
} from '@questkit/core';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';

/** Options of {@link verificationEndpoint}: exactly core's `createVerifier` options. */
export type VerificationEndpointOptions<R extends IdentificationMethod = never> =
  VerifierOptions<R>;

interface Endpoint {
  verifier: Verifier;
  onError: NonNullable<VerifierOptions['onError']>;
}

// Links each endpoint to its verifier, so verificationErrors answers with the same key check,
// messages and hooks without the options being passed twice.
const endpoints = new WeakMap<RequestHandler, Endpoint>();

/**
 * An Express handler for the platform's verification call. Every answer is core's: 200 or 400
 * with a JSON `{message}`, before the deadline, whatever the request. Mount it with `app.all` so
 * that other methods also get the contract's 400 rather than Express's 404 (`app.post` works too).
 *
 * It works with or without a body parser before it: a body `express.json()`, `express.text()` or
 * `express.raw()` produced is reused, an unread body is streamed with core's size limit and
 * deadline. A parser that fails (bad JSON, too large) skips the route: add
 * {@link verificationErrors} after it to keep those answers in the contract.
 *
 * @example
 * const verify = verificationEndpoint({
 *   apiKey: process.env.QUEST_API_KEY!,
 *   requires: ['email'],
 *   verify: async ({ accounts }) =>
 *     (await isSubscribed(accounts.email)) ? ok('Thanks!') : fail('Subscribe first.'),
 * });
 * app.all('/verify', verify);
 */
export function verificationEndpoint<const R extends IdentificationMethod = never>(
  options: VerificationEndpointOptions<R>,
): RequestHandler {
  const verifier = createVerifier(options);
  const endpoint: RequestHandler = (req, res, next) => {
    answer(req, res, verifier, claimInput(req)).catch(next);
  };
  endpoints.set(endpoint, {
    verifier,
    onError:
      options.onError ??
      ((error) =>
        console.error('[@questkit/express] error before the verification endpoint:', error)),
  });
  return endpoint;
}

/**
 * Express error middleware that answers, in the contract's 400 `{message}`, the errors raised
 * before a verification endpoint runs: an app-level `express.json()` that meets malformed JSON or
 * a body over its limit calls `next(err)`, Express then skips every route, and its default
 * handler would answer with an HTML page. Mount it on the endpoint's path so it touches nothing
 * else; the endpoint's verifier still decides (the API key is checked first, hooks are called).
 *
 * @example
 * app.use(express.json());
 * const verify = verificationEndpoint({ apiKey: process.env.QUEST_API_KEY!, verify: check });
 * app.all('/verify', verify);
 * app.use('/verify', verificationErrors(verify));
 */
export function verificationErrors(endpoint: RequestHandler): ErrorRequestHandler {
  const linked = endpoints.get(endpoint);
  if (!linked) {
    throw new TypeError(
      '[@questkit/express] verificationErrors expects the handler returned by verificationEndpoint()',
    );
  }
  const { verifier, onError } = linked;
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    // A 4xx is the request's fault (body-parser's errors all are); anything else is the app's,
    // which the developer hears of and the member never sees.
    const status = statusOf(error);
    if (status === undefined || status < 400 || status > 499) {
      try {
        onError(error, { reason: 'handler_error' });
      } catch {
        // A broken error hook must not change the answer.
      }
    }
    answer(req, res, verifier, bodyOfError(error, req)).catch(next);
  };
}

async function answer(
  req: Request,
  res: Response,
  verifier: Verifier,
  input: ClaimInput,
): Promise<void> {
  const decision: Decision = await verifier.decide(input);
  // Core may stop reading early (too large, too slow, refused on its headers): closing the
  // connection discards the rest instead of draining a body that may never end.
  if (bodyPending(req)) res.set('Connection', 'close');
  res.status(decision.status).set(decision.headers).send(JSON.stringify(decision.body));
}

// Inputs are built as literals, never spread: on Node 20 an object spread followed by more
// properties costs close to a microsecond, as much as the rest of the decision.
function claimInput(req: Request): ClaimInput {
  const { method, headers } = req;
  const receivedAt = Date.now();
  // body-parser 1 (Express 4) sets `_body` once it reads; body-parser 2 (Express 5) only leaves
  // the stream ended. A `req.body` of `{}` alone proves nothing: body-parser 1 sets it even when
  // the content type did not match and the stream is untouched.
  const consumed = (req as { _body?: unknown })._body === true || req.readableEnded;
  if (!consumed) return { method, headers, body: req, receivedAt };
  const body: unknown = req.body;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    return { method, headers, body, receivedAt };
  }
  // Read by something that kept nothing: there are no bytes left to judge.
  if (body === undefined) return { method, headers, body: '', receivedAt };
  return { method, headers, parsed: body, receivedAt };
}

/** Turns an error raised before the endpoint into the request core would have seen. */
function bodyOfError(error: unknown, req: Request): ClaimInput {
  const { method, headers } = req;
  const { type, body } = (error ?? {}) as { type?: unknown; body?: unknown };
  // body-parser keeps the text it could not parse: core parses it again and says what is wrong.
  if (type === 'entity.parse.failed' && typeof body === 'string') {
    return { method, headers, body };
  }
  if (type === 'entity.too.large' || statusOf(error) === 413) {
    return { method, headers, bodyError: 'body_too_large' };
  }
  // Anything else (a bad charset or encoding, an aborted upload, a failing middleware) is a body
  // core cannot read: its generic "could not be read" answer, never the error's own text.
  return { method, headers, bodyError: 'unreadable_body' };
}

/** The HTTP status an error asks for, read as Express's final handler reads it. */
function statusOf(error: unknown): number | undefined {
  const { status, statusCode } = (error ?? {}) as { status?: unknown; statusCode?: unknown };
  const value = status ?? statusCode;
  return typeof value === 'number' ? value : undefined;
}
