import { MAX_BODY_BYTES } from '../limits.js';

// Request bodies. Under the mock's Node server (server.ts) a body is read from the Node request
// before the app runs and handed over here, keyed by its Request. Read through the Request
// instead (`request.text()`), @hono/node-server makes Node 20 build a whole fetch Request (an
// AbortSignal, a web stream): each POST cost about 120 µs more of the mock's CPU under load, a
// third of a claim (`pnpm bench --only mock`). In-process (`platform.fetch`) a body comes from
// its Request.

const received = new WeakMap<Request, Uint8Array>();

/** Hands over the body the server read for `request`. */
export function setReceivedBody(request: Request, bytes: Uint8Array): void {
  received.set(request, bytes);
}

/**
 * The body as text (UTF-8), or null when it is larger than `MAX_BODY_BYTES` (a declared length is
 * checked before anything is read).
 */
export async function readBodyText(request: Request): Promise<string | null> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) return null;
  const bytes = received.get(request) ?? new Uint8Array(await request.arrayBuffer());
  return bytes.byteLength > MAX_BODY_BYTES ? null : new TextDecoder().decode(bytes);
}

/** The 400 message of a body over the limit. */
export const BODY_TOO_LARGE = `The request body is larger than ${MAX_BODY_BYTES} bytes`;
