import { beforeDeadline, TIMED_OUT } from './deadline.js';
import type { DoorBody, DoorRequest } from './door.js';

/** The outcome of {@link readBody}. */
export type BodyRead =
  /** The body as text, decoded as strict UTF-8 (`''` when there is none). */
  | { readonly ok: true; readonly text: string }
  /** A body the framework already parsed. */
  | { readonly ok: true; readonly parsed: unknown }
  | { readonly ok: false; readonly reason: BodyFailure };

/** Why a body could not be read: over the limit, broken off or unreadable, not UTF-8, too slow. */
export type BodyFailure = 'too_large' | 'unreadable' | 'bad_encoding' | 'timeout';

/** How much of a body to read, and until when. */
export interface BodyLimits {
  /** Largest body accepted, in bytes. */
  maxBytes: number;
  /** A `Date.now()` timestamp: a body still arriving then is `timeout`. */
  deadline: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Reads a request body within a size limit and a deadline, so that a huge upload is never
 * buffered and a client that trickles bytes cannot hold the answer. Never throws.
 *
 * A stream it gives up on (too large, too slow, failing) is left as it is, neither drained nor
 * destroyed: destroying a Node request would close its socket before the answer is written. The
 * answer then carries `close: true` so the adapter closes the connection after writing it.
 */
export async function readBody(body: DoorBody, limits: BodyLimits): Promise<BodyRead> {
  switch (body.kind) {
    case 'parsed':
      return { ok: true, parsed: body.value };
    case 'failed':
      return { ok: false, reason: body.reason };
    case 'bytes':
      return decode(
        typeof body.value === 'string' ? encoder.encode(body.value) : body.value,
        limits,
      );
    case 'stream':
      return readStream(body.stream, limits);
    default:
      return { ok: false, reason: 'unreadable' };
  }
}

async function readStream(
  stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>,
  limits: BodyLimits,
): Promise<BodyRead> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    // Inside the try: a locked or already read stream throws here, and is unreadable.
    const next = pull(stream);
    for (;;) {
      const step = await beforeDeadline(next(), limits.deadline);
      if (step === TIMED_OUT) return { ok: false, reason: 'timeout' };
      if (step.done) break;
      const chunk = typeof step.value === 'string' ? encoder.encode(step.value) : step.value;
      total += chunk.byteLength;
      if (total > limits.maxBytes) return { ok: false, reason: 'too_large' };
      chunks.push(chunk);
    }
  } catch {
    // The client went away mid-body, or the stream failed.
    return { ok: false, reason: 'unreadable' };
  }
  return decode(concat(chunks, total), limits);
}

function pull(
  stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>,
): () => Promise<IteratorResult<Uint8Array | string>> {
  // Not every runtime makes a Web stream async-iterable; every one gives it a reader.
  if (typeof (stream as ReadableStream<Uint8Array>).getReader === 'function') {
    const reader = (stream as ReadableStream<Uint8Array>).getReader();
    return () => reader.read() as Promise<IteratorResult<Uint8Array>>;
  }
  const iterator = (stream as AsyncIterable<Uint8Array | string>)[Symbol.asyncIterator]();
  return () => iterator.next();
}

function decode(bytes: Uint8Array, limits: BodyLimits): BodyRead {
  if (bytes.byteLength > limits.maxBytes) return { ok: false, reason: 'too_large' };
  try {
    return { ok: true, text: decoder.decode(bytes) };
  } catch {
    return { ok: false, reason: 'bad_encoding' };
  }
}

function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * True when part of the request's body may still be on the wire: the body was a stream that was
 * not read to its end (refused on its headers, too large, too slow, failing) although the request
 * declares one, or the framework gave up on it. The answer then closes the connection, so that
 * the rest is never drained nor read as the next request of a kept-alive connection.
 */
export function bodyLeftOnWire(
  request: Pick<DoorRequest, 'body' | 'header'>,
  readToEnd: boolean,
): boolean {
  if (request.body.kind === 'failed') return true;
  if (request.body.kind !== 'stream' || readToEnd) return false;
  const length = request.header('content-length');
  return (
    request.header('transfer-encoding') !== undefined || (length !== undefined && length !== '0')
  );
}
