import type { EmitterBody } from './body.js';
import { getHeader } from './headers.js';

/**
 * A Node `http.IncomingMessage`, seen structurally so that core needs no Node types: a readable
 * stream with the request line's method and the lower-cased headers.
 */
export interface NodeRequest extends EmitterBody {
  readonly method?: string;
  readonly headers: { readonly [name: string]: string | readonly string[] | undefined };
  /** Node sets it once the whole message, body included, has arrived. */
  readonly complete?: boolean;
}

/** A Node `http.ServerResponse`, seen structurally: what an answer needs of it. */
export interface NodeResponse {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(body: string): unknown;
}

/**
 * True when part of a body the request declares may not have been received or read yet: core
 * stopped reading it (too large, too slow, refused on its headers). Answer such a request with
 * `Connection: close`, so the rest is never drained, nor read as the next request of the
 * connection.
 */
export function bodyPending(request: NodeRequest): boolean {
  if (request.complete || request.readableEnded) return false;
  const length = getHeader(request.headers, 'content-length');
  return (
    getHeader(request.headers, 'transfer-encoding') !== null || (length !== null && length !== '0')
  );
}
