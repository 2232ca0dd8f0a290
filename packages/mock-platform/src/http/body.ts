import { MAX_BODY_BYTES } from '../limits.js';

// Request bodies. Under the mock's Node server (server.ts) a body is read from the Node request
// and handed over here, keyed by its Request. Read through the Request instead
// (`request.text()`), @hono/node-server makes Node 20 build a whole fetch Request (an
// AbortSignal, a web stream) per POST. In-process (`platform.fetch`) a body comes from its Request.
//
// The server hands over a reader, not the bytes: the body is read only when a route asks for
// it, after the Host check, the control token and the credentials, so that a request about to be
// refused holds no buffer (40 stalled unauthenticated uploads once held 40 MiB).

const received = new WeakMap<Request, () => Promise<Uint8Array>>();

/** Hands over how to read the body of `request`; it runs once, when a route reads the body. */
export function setBodyReader(request: Request, read: () => Promise<Uint8Array>): void {
  received.set(request, read);
}

/**
 * The body as text (UTF-8), or null when it is larger than `MAX_BODY_BYTES` (a declared length is
 * checked before anything is read).
 */
export async function readBodyText(request: Request): Promise<string | null> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) return null;
  const read = received.get(request);
  const bytes = read ? await read() : new Uint8Array(await request.arrayBuffer());
  return bytes.byteLength > MAX_BODY_BYTES ? null : new TextDecoder().decode(bytes);
}

/** The client closed the connection (or the request deadline cut it) before its body ended. */
export class RequestClosedError extends Error {
  override name = 'RequestClosedError';
  constructor() {
    super('the request closed before its body ended');
  }
}

/** The 400 message of a body over the limit. */
export const BODY_TOO_LARGE = `The request body is larger than ${MAX_BODY_BYTES} bytes`;
