import { startDeadline, TIMED_OUT, unwatch, Watched, watch } from './deadline.js';

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

/** A body being read whole by someone else, such as `request.arrayBuffer()`. */
export type PendingBody = PromiseLike<string | Uint8Array | ArrayBuffer>;

/**
 * A request body as an adapter holds it: bytes, text, a stream not read yet, or the promise of
 * a whole read (its bytes are judged once it settles, and the deadline still holds).
 */
export type BodySource =
  | string
  | Uint8Array
  | ArrayBuffer
  | ReadableStream<Uint8Array>
  | EmitterBody
  | AsyncIterable<Uint8Array | string>
  | PendingBody;

/** The outcome of reading a body within a size limit and a deadline. */
export type ReadBodyResult =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; reason: 'body_too_large' | 'unreadable_body' | 'timeout' };

interface Limits {
  maxBytes: number;
  deadline: number;
}

const encoder = new TextEncoder();
// Shared and frozen: a result is read, never changed.
const EMPTY: ReadBodyResult = Object.freeze({ ok: true, bytes: new Uint8Array(0) });
const TOO_LARGE: ReadBodyResult = Object.freeze({ ok: false, reason: 'body_too_large' });
const UNREADABLE: ReadBodyResult = Object.freeze({ ok: false, reason: 'unreadable_body' });
const TIMEOUT: ReadBodyResult = Object.freeze({ ok: false, reason: 'timeout' });

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
export function readBody(
  source: BodySource | null | undefined,
  limits: Limits,
): Promise<ReadBodyResult> {
  return new Promise((resolve) => {
    try {
      readBodyInto(source, limits, resolve);
    } catch {
      // A source whose own properties throw when looked at cannot be read.
      resolve(UNREADABLE);
    }
  });
}

/**
 * Reads a body as {@link readBody} does and hands the result to `done`: at once when the body is
 * already in memory, else when it is read. No promise sits between a Node stream's last chunk
 * and `done`. `done` is called exactly once.
 */
export function readBodyInto(
  source: BodySource | null | undefined,
  limits: Limits,
  done: (read: ReadBodyResult) => void,
): void {
  if (source == null) {
    done(EMPTY);
    return;
  }
  // Node streams before the `instanceof` checks of fromMemory(): those walk a Node stream's long
  // prototype chain. Streams are read through their events, cheaper than their async iterator.
  if (typeof source !== 'string' && isEmitter(source)) {
    readEmitter(source, limits, done);
    return;
  }
  const inMemory = fromMemory(source, limits.maxBytes);
  if (inMemory) done(inMemory);
  else if (typeof source === 'object' && isPending(source)) readPending(source, limits, done);
  else readIterator(source as AsyncIterable<Uint8Array | string>, limits).then(done);
}

/** The result for a body already in memory, or `undefined` when `body` is not one. */
function fromMemory(body: unknown, maxBytes: number): ReadBodyResult | undefined {
  if (typeof body === 'string') return sized(encoder.encode(body), maxBytes);
  if (body instanceof Uint8Array) return sized(body, maxBytes);
  if (body instanceof ArrayBuffer) return sized(new Uint8Array(body), maxBytes);
  return undefined;
}

/**
 * `done`, made callable once and bound to `deadline`: it is called with a timeout there unless
 * it ran first. `onFailure` runs before a failed result is handed over.
 */
function settleOnce(
  deadline: number,
  done: (read: ReadBodyResult) => void,
  onFailure?: () => void,
): (read: ReadBodyResult) => void {
  let settled = false;
  const finish = (read: ReadBodyResult) => {
    if (settled) return;
    settled = true;
    unwatch(watched);
    if (!read.ok) onFailure?.();
    done(read);
  };
  const watched = new Watched(deadline, () => finish(TIMEOUT));
  watch(watched);
  return finish;
}

function isEmitter(source: object): source is EmitterBody {
  const candidate = source as Partial<EmitterBody>;
  return typeof candidate.on === 'function' && typeof candidate.removeListener === 'function';
}

function readEmitter(
  source: EmitterBody,
  limits: Limits,
  done: (read: ReadBodyResult) => void,
): void {
  if (source.readableEnded || source.destroyed) {
    done(source.readableEnded ? EMPTY : UNREADABLE);
    return;
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  // A stream may emit after it ended or failed (`close` follows both): one result only. An ended
  // stream emits nothing that matters any more, so its listeners are left to it; a failed one is
  // let go of and paused.
  const finish = settleOnce(limits.deadline, done, () => {
    source.removeListener('data', onData);
    source.removeListener('end', onEnd);
    source.removeListener('error', onFailure);
    source.removeListener('close', onFailure);
    source.pause?.();
  });
  const onData = (chunk: Uint8Array | string) => {
    const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
    total += bytes.byteLength;
    if (total > limits.maxBytes) finish(TOO_LARGE);
    else chunks.push(bytes);
  };
  const onEnd = () => finish({ ok: true, bytes: concat(chunks, total) });
  // `close` before `end` means the client went away mid-body.
  const onFailure = () => finish(UNREADABLE);
  source.on('data', onData);
  source.on('end', onEnd);
  source.on('error', onFailure);
  source.on('close', onFailure);
}

function isPending(source: object): source is PendingBody {
  return typeof (source as Partial<PendingBody>).then === 'function';
}

function readPending(
  source: PendingBody,
  limits: Limits,
  done: (read: ReadBodyResult) => void,
): void {
  const finish = settleOnce(limits.deadline, done);
  try {
    source.then(
      (body) => finish(fromMemory(body, limits.maxBytes) ?? UNREADABLE),
      () => finish(UNREADABLE),
    );
  } catch {
    finish(UNREADABLE);
  }
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
      if (step === TIMED_OUT) return TIMEOUT;
      if (step.done) break;
      const chunk = typeof step.value === 'string' ? encoder.encode(step.value) : step.value;
      total += chunk.byteLength;
      if (total > limits.maxBytes) return TOO_LARGE;
      chunks.push(chunk);
    }
  } catch {
    return UNREADABLE;
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
  return bytes.byteLength > maxBytes ? TOO_LARGE : { ok: true, bytes };
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
