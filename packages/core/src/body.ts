/** A request body as an adapter holds it: bytes, text, or a stream not read yet. */
export type BodySource =
  | string
  | Uint8Array
  | ArrayBuffer
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | string>;

/** The outcome of reading a body within a size limit and a deadline. */
export type ReadBodyResult =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; reason: 'body_too_large' | 'unreadable_body' | 'timeout' };

const encoder = new TextEncoder();
const TIMED_OUT = Symbol('timed out');

/**
 * Reads a body into bytes, giving up as soon as it passes `maxBytes` (so a huge upload is never
 * buffered) or `deadline` (so a client that trickles bytes cannot hold the request past the
 * platform's limit). A stream that errors is `unreadable_body`; an already drained stream reads
 * as empty. Never throws.
 *
 * When it gives up, it stops reading but leaves the source open: destroying a Node request would
 * also destroy its socket before the 400 is written. The caller closes the connection after
 * answering.
 */
export async function readBody(
  source: BodySource | null | undefined,
  limits: { maxBytes: number; deadline: number },
): Promise<ReadBodyResult> {
  if (source == null) return { ok: true, bytes: new Uint8Array(0) };
  if (typeof source === 'string') return sized(encoder.encode(source), limits.maxBytes);
  if (source instanceof Uint8Array) return sized(source, limits.maxBytes);
  if (source instanceof ArrayBuffer) return sized(new Uint8Array(source), limits.maxBytes);

  const chunks: Uint8Array[] = [];
  let total = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), Math.max(0, limits.deadline - Date.now()));
  });
  try {
    // Inside the try: a locked or already used stream throws here, and is an unreadable body.
    const iterator = iterate(source);
    for (;;) {
      const next = await Promise.race([iterator.next(), timedOut]);
      if (next === TIMED_OUT) return { ok: false, reason: 'timeout' };
      if (next.done) break;
      const chunk = typeof next.value === 'string' ? encoder.encode(next.value) : next.value;
      total += chunk.byteLength;
      if (total > limits.maxBytes) return { ok: false, reason: 'body_too_large' };
      chunks.push(chunk);
    }
  } catch {
    return { ok: false, reason: 'unreadable_body' };
  } finally {
    clearTimeout(timer);
  }
  return { ok: true, bytes: concat(chunks, total) };
}

/**
 * True when `text` is at most `maxBytes` once UTF-8 encoded. A UTF-16 code unit takes one to
 * three bytes, so only texts between those bounds are encoded to be measured.
 */
export function textFits(text: string, maxBytes: number): boolean {
  if (text.length > maxBytes) return false;
  if (text.length * 3 <= maxBytes) return true;
  return encoder.encode(text).byteLength <= maxBytes;
}

function sized(bytes: Uint8Array, maxBytes: number): ReadBodyResult {
  return bytes.byteLength > maxBytes
    ? { ok: false, reason: 'body_too_large' }
    : { ok: true, bytes };
}

function iterate(
  source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>,
): AsyncIterator<Uint8Array | string> {
  if (Symbol.asyncIterator in source) return source[Symbol.asyncIterator]();
  // ReadableStream without async iteration (some runtimes): drive its reader directly.
  const reader = (source as ReadableStream<Uint8Array>).getReader();
  return { next: () => reader.read() as Promise<IteratorResult<Uint8Array>> };
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
