import type { DoorAnswer, DoorBody, DoorEndpoint, DoorRequest } from '@questkit/core/adapter';
import type { Context, Env, Handler, Input } from 'hono';

/**
 * Hono's side of core's door, for any endpoint (verification, connect, webhooks): a handler that
 * turns the context into core's request and core's answer into a response. `url` gives the URL
 * the endpoint sees when it is not the one Hono reports.
 */
export function bridge<E extends Env, P extends string, I extends Input>(
  endpoint: DoorEndpoint<Context<E>>,
  url?: (c: Context<E>) => string,
): Handler<E, P, I, Promise<Response>> {
  return async (c) => respond(c, await endpoint.handle(doorRequest(c, url?.(c)), c));
}

/**
 * A Hono request as core's door sees it, through Hono's public API only. The body is the Web
 * request's stream when nothing read it; when a middleware read it through Hono (`c.req.json()`,
 * a validator), Hono hands back what it kept, within core's size limit and deadline.
 */
function doorRequest(c: Context, url = c.req.url): DoorRequest {
  return {
    method: c.req.method,
    url,
    header: (name) => c.req.header(name),
    body: bodyOf(c),
    receivedAt: Date.now(),
  };
}

function bodyOf(c: Context): DoorBody {
  const { body, bodyUsed } = c.req.raw;
  // Read by a middleware through Hono: Hono keeps what it read, and hands it over again. A body
  // read around Hono's cache makes the read reject: core answers unreadable.
  if (bodyUsed) return { kind: 'whole', read: () => c.req.arrayBuffer() };
  if (!body) return { kind: 'bytes', value: '' };
  // Core reads the stream itself rather than asking Hono for the body whole: undici's
  // `arrayBuffer()` copies it into a fresh ArrayBuffer (see bench/README.md), and a stream is
  // one core can drain when it refuses the body.
  return { kind: 'stream', stream: body };
}

/** Core's answer as a Hono response; `c.body` keeps headers earlier middleware set. */
function respond(c: Context, answer: DoorAnswer): Response {
  for (const cookie of answer.cookies) c.header('set-cookie', cookie, { append: true });
  const headers: Record<string, string> = { ...answer.headers };
  if (answer.close) headers.connection = 'close';
  // Hono types a status as a literal; core's is one of the few an answer may have.
  return c.body(answer.body, answer.status as 200, headers);
}
