import type { DoorAnswer, DoorBody, DoorRequest } from '@questkit/core/adapter';
import { nodeHeader } from '@questkit/core/adapter';
import type { Request, Response } from 'express';

/** An Express request as core's door sees it; `body` defaults to what Express holds. */
export function doorRequest(
  req: Request,
  body: DoorBody = bodyOf(req),
  // originalUrl: a router mounted with app.use rewrites req.url, but clients used the whole path.
  url: string = req.originalUrl,
): DoorRequest {
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
export function bodyOf(req: Request): DoorBody {
  if (!req.readableEnded) return { kind: 'stream', stream: req };
  const body: unknown = req.body;
  if (body === undefined) return { kind: 'bytes', value: '' };
  if (typeof body === 'string' || body instanceof Uint8Array) return { kind: 'bytes', value: body };
  return { kind: 'parsed', value: body };
}

/**
 * The body behind an error a body parser raised, by the `type` body-parser documents: the text
 * it could not parse (core parses it again and says what is wrong), or what it gave up on.
 */
export function bodyOfError(error: unknown): DoorBody {
  const { type, body } = (error ?? {}) as { type?: unknown; body?: unknown };
  if (type === 'entity.parse.failed' && typeof body === 'string')
    return { kind: 'bytes', value: body };
  if (type === 'entity.too.large' || statusOf(error) === 413)
    return { kind: 'failed', reason: 'too_large' };
  return { kind: 'failed', reason: 'unreadable' };
}

/** The HTTP status an error asks for, read as Express's final handler reads it. */
export function statusOf(error: unknown): number | undefined {
  const { status, statusCode } = (error ?? {}) as { status?: unknown; statusCode?: unknown };
  const value = status ?? statusCode;
  return typeof value === 'number' ? value : undefined;
}

/** Writes core's answer as it stands. */
export function writeAnswer(res: Response, answer: DoorAnswer): void {
  res.status(answer.status).set(answer.headers);
  for (const cookie of answer.cookies) res.append('Set-Cookie', cookie);
  if (answer.close) res.set('Connection', 'close');
  res.send(answer.body);
}
