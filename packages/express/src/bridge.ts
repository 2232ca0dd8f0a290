import type { DoorAnswer, DoorBody, DoorEndpoint, DoorRequest } from '@questkit/core/adapter';
import { nodeHeader } from '@questkit/core/adapter';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';

/** How the bridge serves one endpoint. */
export interface BridgeOptions {
  /** The URL the endpoint sees; default the path and query as the client sent them. */
  url?: (req: Request) => string;
  /** Hears the errors the route's error handler is given that are not the request's fault. */
  onAppError?: (error: unknown) => void;
}

/**
 * Express's side of core's door, for any endpoint (verification, connect, webhooks): the handler,
 * then its own error handler. Express runs a route's error handlers in the route's stack, so a
 * body parser's failure on the endpoint's route is still answered by core.
 */
export function bridge(
  endpoint: DoorEndpoint<Request>,
  options: BridgeOptions = {},
): [RequestHandler, ErrorRequestHandler] {
  const serve = (req: Request, res: Response, body: DoorBody, next: (error: unknown) => void) => {
    endpoint
      .handle(doorRequest(req, body, options.url?.(req) ?? req.originalUrl), req)
      .then((answer) => writeAnswer(res, answer))
      .catch(next);
  };
  return [
    (req, res, next) => serve(req, res, bodyOf(req), next),
    (error: unknown, req, res, next) => {
      if (res.headersSent) return next(error);
      // A 4xx is the request's fault (body-parser's errors all are); anything else is the app's,
      // which the developer hears of and the member never sees.
      const status = statusOf(error);
      if (options.onAppError && (status === undefined || status < 400 || status > 499)) {
        try {
          options.onAppError(error);
        } catch {
          // A broken error hook must not change the answer.
        }
      }
      serve(req, res, bodyOfError(error, req), next);
    },
  ];
}

// originalUrl: a router mounted with app.use rewrites req.url, but clients used the whole path.
function doorRequest(req: Request, body: DoorBody, url: string): DoorRequest {
  return {
    method: req.method,
    url,
    header: (name) => nodeHeader(req.headers, name),
    body,
    receivedAt: Date.now(),
  };
}

/**
 * The body as Express holds it: still on the wire, or what a body parser before the endpoint
 * produced. A parser that read the body ended the stream; one that skipped it (another content
 * type) left it unread, whatever it set `req.body` to.
 */
function bodyOf(req: Request): DoorBody {
  if (!req.readableEnded) return { kind: 'stream', stream: req };
  const body: unknown = req.body;
  if (body === undefined) return { kind: 'bytes', value: '' };
  if (typeof body === 'string' || body instanceof Uint8Array) return { kind: 'bytes', value: body };
  return { kind: 'parsed', value: body };
}

/**
 * The body behind an error a body parser raised, by the `type` body-parser documents: the text
 * it could not parse (core parses it again and says what is wrong), or what it gave up on, with
 * the request for core to drain: body-parser reads off a body it failed on before it raises the
 * error, but one it refuses on its headers (a charset other than UTF-8, an unknown encoding) is
 * still on the wire.
 */
function bodyOfError(error: unknown, req: Request): DoorBody {
  const { type, body } = (error ?? {}) as { type?: unknown; body?: unknown };
  if (type === 'entity.parse.failed' && typeof body === 'string')
    return { kind: 'bytes', value: body };
  const tooLarge = type === 'entity.too.large' || statusOf(error) === 413;
  return { kind: 'failed', reason: tooLarge ? 'too_large' : 'unreadable', stream: req };
}

/** The HTTP status an error asks for, read as Express's final handler reads it. */
function statusOf(error: unknown): number | undefined {
  const { status, statusCode } = (error ?? {}) as { status?: unknown; statusCode?: unknown };
  const value = status ?? statusCode;
  return typeof value === 'number' ? value : undefined;
}

/** Writes core's answer as it stands. */
function writeAnswer(res: Response, answer: DoorAnswer): void {
  res.status(answer.status).set(answer.headers);
  for (const cookie of answer.cookies) res.append('Set-Cookie', cookie);
  if (answer.close) res.set('Connection', 'close');
  res.send(answer.body);
}
