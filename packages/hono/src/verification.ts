import {
  type BodySource,
  createVerifier,
  type Decision,
  type IdentificationMethod,
  type NodeRequest,
  type Reason,
  type VerifierOptions,
} from '@questkit/core';
import type { Context, Env, Handler, HonoRequest, Input } from 'hono';

/** Options of {@link verificationEndpoint}: exactly core's `createVerifier` options. */
export type VerificationEndpointOptions<R extends IdentificationMethod = never> =
  VerifierOptions<R>;

/**
 * A Hono handler for the platform's verification call. Every answer is core's: 200 or 400 with
 * a JSON `{message}`, before the deadline, whatever the request. Mount it with `app.all` so that
 * other methods also get the contract's 400 rather than Hono's 404.
 *
 * It works whether or not an earlier middleware read the body: a body Hono has cached
 * (`c.req.json()`, `c.req.text()`, a validator) is reused, an untouched one is streamed with
 * core's size limit and deadline, and one consumed around Hono's cache is refused at once.
 *
 * @example
 * const app = new Hono();
 * app.all(
 *   '/verify',
 *   verificationEndpoint({
 *     apiKey: process.env.QUEST_API_KEY!,
 *     requires: ['email'],
 *     verify: async ({ accounts }) =>
 *       (await isSubscribed(accounts.email)) ? ok('Thanks!') : fail('Subscribe first.'),
 *   }),
 * );
 */
export function verificationEndpoint<
  const R extends IdentificationMethod = never,
  E extends Env = Env,
  P extends string = string,
  I extends Input = Input,
>(options: VerificationEndpointOptions<R>): Handler<E, P, I, Promise<Response>> {
  const verifier = createVerifier(options);
  return async (c) => {
    const receivedAt = Date.now();
    const incoming = untouchedIncoming(c);
    const method = c.req.method;
    const headers = incoming ? incoming.headers : c.req.raw.headers;
    // Refusing on the headers alone leaves the body stream untouched, so the server can drain it
    // and keep the connection alive.
    const early = verifier.precheck({ method, headers, receivedAt });
    if (early) return answer(c, early, false);
    // A literal, not a spread: on Node 20 an object spread costs close to a microsecond, as much
    // as the rest of the decision.
    const decision = await verifier.decide({
      method,
      headers,
      receivedAt,
      body: incoming ?? bodyOf(c.req),
      prechecked: true,
    });
    return answer(c, decision, PARTIAL_READS.has(decision.reason));
  };
}

/** Node's request as @hono/node-server passes it in `c.env.incoming`, seen structurally. */
interface NodeIncoming extends NodeRequest {
  readonly readableDidRead?: boolean;
  readonly readableFlowing?: boolean | null;
  listenerCount?(event: string): number;
}

/**
 * Under @hono/node-server, Node's own request when nothing has read its body yet: core then reads
 * it directly. Building the Web `Request` that `c.req.raw` stands for (its headers, signal and
 * body stream) costs more than the whole verification; the request is only used untouched, so a
 * body some middleware read, started or wrapped still goes through Hono.
 */
function untouchedIncoming(c: Context): NodeIncoming | undefined {
  const incoming = (c.env as { incoming?: NodeIncoming } | undefined)?.incoming;
  if (typeof incoming?.on !== 'function' || typeof incoming.listenerCount !== 'function') {
    return undefined;
  }
  // A middleware that replaced `c.req.raw` (new headers, a wrapped body) with a plain Request
  // meant it to be read: node-server's own request is a lighter object built on top of Request.
  if (Object.getPrototypeOf(c.req.raw) === Request.prototype) return undefined;
  const untouched =
    incoming.readableDidRead === false &&
    incoming.readableFlowing === null &&
    incoming.listenerCount('data') === 0 &&
    !('rawBody' in incoming);
  if (!untouched) return undefined;
  for (const _read in c.req.bodyCache) return undefined;
  return incoming;
}

// Answers given while the body may be only partly read: the rest of it would sit in front of
// the next request on a kept-alive connection.
const PARTIAL_READS: ReadonlySet<Reason> = new Set([
  'body_too_large',
  'unreadable_body',
  'timeout',
]);

function answer(c: Context, decision: Decision, close: boolean): Response {
  // A fresh header record: @hono/node-server writes content-length into a plain one, and core's
  // is frozen. c.body also keeps headers earlier middleware set (CORS, request ids).
  const headers: Record<string, string> = { ...decision.headers };
  if (close) headers.connection = 'close';
  return c.body(JSON.stringify(decision.body), decision.status, headers);
}

function bodyOf(req: Pick<HonoRequest, 'bodyCache' | 'arrayBuffer' | 'raw'>): BodySource | null {
  // Hono keeps what its body methods read; arrayBuffer() returns it (converted if need be).
  if (Object.keys(req.bodyCache).length > 0) return req.arrayBuffer();
  const { body, bodyUsed } = req.raw;
  if (bodyUsed || body?.locked) return CONSUMED;
  // precheck() already held a declared length to the limit, and HTTP framing holds the body to
  // its declared length: reading it whole is safe, and cheaper than the Web stream chunk by chunk.
  // Core races the read against its deadline, so a body still arriving cannot hold the answer.
  if (req.raw.headers.has('content-length')) return req.arrayBuffer();
  return body;
}

// Something read `c.req.raw` around Hono's cache: the bytes are gone, and waiting on a locked
// stream could hang, so core answers `unreadable_body` at once.
const CONSUMED: AsyncIterable<Uint8Array> = {
  [Symbol.asyncIterator]: () => ({
    next: () => Promise.reject(new Error('the request body was consumed before the handler')),
  }),
};
