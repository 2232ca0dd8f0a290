import { startDeadline, TIMED_OUT } from './deadline.js';

/**
 * A Node-style readable stream, seen structurally so that core needs no Node types: it emits
 * `data`, `end`, `error` and `close`. A Node `IncomingMessage` is one.
 */
export interface EmitterBody {
  on(event: string, listener: (...args: never[]) => void): unknown;
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
  pause?(): unknown;
  readonly readableEnded?: boolean;
  readonly destroyed?: boolean;
}

/** A request body as an adapter holds it: bytes, text, or a stream not read yet. */
export type BodySource =
  | string
  | Uint8Array
  | ArrayBuffer
  | ReadableStream<Uint8Array>
  | EmitterBody
  | AsyncIterable<Uint8Array | string>;

/** The outcome of reading a body within a size limit and a deadline. */
export type ReadBodyResult =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; reason: 'body_too_large' | 'unreadable_body' | 'timeout' };

interface Limits {
  maxBytes: number;
  deadline: number;
}

const encoder = new TextEncoder();
const EMPTY: ReadBodyResult = { ok: true, bytes: new Uint8Array(0) };

/**
 * Reads a body into bytes, giving up as soon as it passes `maxBytes` (so a huge upload is never
 * buffered) or `deadline` (so a client that trickles bytes cannot hold the request past the
 * platform's limit). A stream that errors or closes early is `unreadable_body`; an already
 * drained stream reads as empty. Never throws.
 *
 * When it gives up, it stops reading but leaves the source open: destroying a Node request would
 * also destroy its socket before the 400 is written. The caller closes the connection after
 * answering.
 */
export async function readBody(
  source: BodySource | null | undefined,
  limits: Limits,
): Promise<ReadBodyResult> {
  if (source == null) return EMPTY;
  if (typeof source === 'string') return sized(encoder.encode(source), limits.maxBytes);
  if (source instanceof Uint8Array) return sized(source, limits.maxBytes);
  if (source instanceof ArrayBuffer) return sized(new Uint8Array(source), limits.maxBytes);
  // Node streams are read through their events: their async iterator costs microseconds more.
  if (isEmitter(source)) return readEmitter(source, limits);
  return readIterator(source, limits);
}

function isEmitter(source: object): source is EmitterBody {
  const candidate = source as Partial<EmitterBody>;
  return typeof candidate.on === 'function' && typeof candidate.removeListener === 'function';
}

function readEmitter(source: EmitterBody, limits: Limits): Promise<ReadBodyResult> {
  if (source.readableEnded) return Promise.resolve(EMPTY);
  if (source.destroyed) return Promise.resolve({ ok: false, reason: 'unreadable_body' });
  return new Promise((resolve) => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    const finish = (result: ReadBodyResult) => {
      clearTimeout(timer);
      source.removeListener('data', onData);
      source.removeListener('end', onEnd);
      source.removeListener('error', onFailure);
      source.removeListener('close', onFailure);
      if (!result.ok) source.pause?.();
      resolve(result);
    };
    const onData = (chunk: Uint8Array | string) => {
      const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
      total += bytes.byteLength;
      if (total > limits.maxBytes) finish({ ok: false, reason: 'body_too_large' });
      else chunks.push(bytes);
    };
    const onEnd = () => finish({ ok: true, bytes: concat(chunks, total) });
    // `close` before `end` means the client went away mid-body.
    const onFailure = () => finish({ ok: false, reason: 'unreadable_body' });
    const timer = setTimeout(
      () => finish({ ok: false, reason: 'timeout' }),
      Math.max(0, limits.deadline - Date.now()),
    );
    source.on('data', onData);
    source.on('end', onEnd);
    source.on('error', onFailure);
    source.on('close', onFailure);
  });
}

async function readIterator(
  source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>,
  limits: Limits,
): Promise<ReadBodyResult> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const deadline = startDeadline(limits.deadline);
  try {
    // Inside the try: a locked or already used stream throws here, and is an unreadable body.
    const next = pull(source);
    for (;;) {
      const step = await Promise.race([next(), deadline.passed]);
      if (step === TIMED_OUT) return { ok: false, reason: 'timeout' };
      if (step.done) break;
      const chunk = typeof step.value === 'string' ? encoder.encode(step.value) : step.value;
      total += chunk.byteLength;
      if (total > limits.maxBytes) return { ok: false, reason: 'body_too_large' };
      chunks.push(chunk);
    }
  } catch {
    return { ok: false, reason: 'unreadable_body' };
  } finally {
    deadline.clear();
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

function pull(
  source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>,
): () => Promise<IteratorResult<Uint8Array | string>> {
  // A Web stream's reader is cheaper than its async iterator, and every runtime has it.
  if (typeof (source as ReadableStream<Uint8Array>).getReader === 'function') {
    const reader = (source as ReadableStream<Uint8Array>).getReader();
    return () => reader.read() as Promise<IteratorResult<Uint8Array>>;
  }
  const iterator = (source as AsyncIterable<Uint8Array | string>)[Symbol.asyncIterator]();
  return () => iterator.next();
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
