import type { DoorAnswer, DoorRequest } from './door.js';

/**
 * A Node `http.IncomingMessage`, seen structurally so that core needs no Node types: the request
 * line, the lower-cased headers, and the body as an async iterable of chunks.
 */
export interface NodeRequest extends AsyncIterable<Uint8Array | string> {
  readonly method?: string;
  readonly url?: string;
  readonly headers: { readonly [name: string]: string | readonly string[] | undefined };
}

/** A Node `http.ServerResponse`, seen structurally: what writing an answer needs of it. */
export interface NodeResponse {
  statusCode: number;
  /** Sets a header (a list for `set-cookie`). */
  setHeader(name: string, value: string | readonly string[]): unknown;
  /** Sends the body and ends the answer. */
  end(body?: string): unknown;
}

/**
 * A Node request as a {@link DoorRequest}. `url` is the path and query as received: Node does
 * not know the public origin.
 */
export function requestFromNode(request: NodeRequest, receivedAt = Date.now()): DoorRequest {
  return {
    method: request.method ?? 'GET',
    url: request.url ?? '/',
    header: (name) => nodeHeader(request.headers, name),
    body: { kind: 'stream', stream: request },
    receivedAt,
  };
}

/**
 * Writes a {@link DoorAnswer} on a Node response. Headers are set one by one, not through
 * `writeHead`, so that Node adds the `content-length` itself.
 */
export function writeNodeAnswer(response: NodeResponse, answer: DoorAnswer): void {
  response.statusCode = answer.status;
  for (const name in answer.headers) response.setHeader(name, answer.headers[name]!);
  if (answer.cookies.length > 0) response.setHeader('set-cookie', answer.cookies);
  if (answer.close) response.setHeader('connection', 'close');
  response.end(answer.body);
}

/** One header of Node's record; a repeated one joined by ", ", as `Headers.get` does. */
export function nodeHeader(
  headers: { readonly [name: string]: string | readonly string[] | undefined },
  name: string,
): string | undefined {
  const value = headers[name];
  return value === undefined || typeof value === 'string' ? value : value.join(', ');
}
