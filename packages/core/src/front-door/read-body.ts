import type { DoorRequest } from '../adapter/door.js';
import { beforeDeadline, TIMED_OUT, timerUntil } from './deadline.js';

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
const TOO_LARGE: BodyRead = { ok: false, reason: 'too_large' };
const UNREADABLE: BodyRead = { ok: false, reason: 'unreadable' };
const TIMED_OUT_READ: BodyRead = { ok: false, reason: 'timeout' };

/**
 * Reads a request body within a size limit and a deadline, so that a huge upload is never
 * buffered and a client that trickles bytes cannot hold the answer. Never throws.
 *
 * The declared `content-length` is checked before the first byte: a body announced over the
 * limit is `too_large` unread, whatever the framework would do on reading it (Hono's
 * `arrayBuffer()` takes it whole). A stream is then counted as it arrives and dropped at the limit.
 *
 * A stream it gives up on (too large, too slow, failing) is left as it is, not destroyed:
 * destroying a Node request would close its socket before the answer is written. The front door
 * then drains what it can of the rest (`drainBody`), and closes the connection on what is left.
 */
export function readBody(
  request: Pick<DoorRequest, 'body' | 'header'>,
  limits: BodyLimits,
): Promise<BodyRead> {
  if (Number(request.header('content-length') ?? 0) > limits.maxBytes) {
    return Promise.resolve(TOO_LARGE);
  }
  const { body } = request;
  switch (body.kind) {
    case 'parsed':
      return Promise.resolve({ ok: true, parsed: body.value });
    case 'failed':
      return Promise.resolve({ ok: false, reason: body.reason });
    case 'bytes':
      return Promise.resolve(
        decode(typeof body.value === 'string' ? encoder.encode(body.value) : body.value, limits),
      );
    case 'whole':
      return readWhole(body.read, limits);
    case 'stream':
      return isEmitter(body.stream)
        ? readEmitter(body.stream, limits)
        : readStream(body.stream, limits);
    default:
      return Promise.resolve(UNREADABLE);
  }
}

/** A body the framework reads whole: one read, raced against the deadline by one timer. */
function readWhole(
  read: () => Promise<Uint8Array | ArrayBuffer>,
  limits: BodyLimits,
): Promise<BodyRead> {
  let reading: Promise<Uint8Array | ArrayBuffer>;
  try {
    reading = read();
  } catch {
    return Promise.resolve(UNREADABLE);
  }
  return beforeDeadline(reading, limits.deadline).then(
    (bytes) => {
      if (bytes === TIMED_OUT) return TIMED_OUT_READ;
      return decode(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes), limits);
    },
    () => UNREADABLE,
  );
}

async function readStream(
  stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>,
  limits: BodyLimits,
): Promise<BodyRead> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    // Inside the try: a locked or already read stream throws here, and is unreadable.
    const source = pull(stream);
    for (;;) {
      const step = await beforeDeadline(source.next(), limits.deadline);
      if (step === TIMED_OUT) return TIMED_OUT_READ;
      if (step.done) break;
      const chunk = typeof step.value === 'string' ? encoder.encode(step.value) : step.value;
      total += chunk.byteLength;
      if (total > limits.maxBytes) {
        // No read is pending: the front door may drain the rest before it answers.
        source.release();
        return TOO_LARGE;
      }
      chunks.push(chunk);
    }
  } catch {
    // The client went away mid-body, or the stream failed.
    return UNREADABLE;
  }
  return decode(concat(chunks, total), limits);
}

/**
 * A Node readable (a request), seen structurally: core imports nothing from Node. Read through
 * its events, not its async iterator, which costs a promise per chunk (see bench/README.md).
 */
export interface Emitter {
  on(event: string, listener: (...args: never[]) => void): unknown;
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
  readonly readableEnded?: boolean;
  readonly destroyed?: boolean;
}

const ignore = () => {};

export function isEmitter(stream: unknown): stream is Emitter {
  const candidate = stream as Partial<Emitter>;
  return typeof candidate.on === 'function' && typeof candidate.removeListener === 'function';
}

function readEmitter(stream: Emitter, limits: BodyLimits): Promise<BodyRead> {
  if (stream.readableEnded) return Promise.resolve({ ok: true, text: '' });
  if (stream.destroyed) {
    // A stream destroyed with an error emits it on the next tick: heard here, it cannot crash the
    // process when nobody else listens.
    stream.on('error', ignore);
    return Promise.resolve(UNREADABLE);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  return followEmitter<BodyRead>(stream, limits.deadline, {
    chunk(chunk) {
      const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
      total += bytes.byteLength;
      if (total > limits.maxBytes) return TOO_LARGE;
      chunks.push(bytes);
      return undefined;
    },
    end: () => decode(concat(chunks, total), limits),
    failed: UNREADABLE,
    timedOut: TIMED_OUT_READ,
  });
}

/** What {@link followEmitter} makes of each event. */
export interface EmitterOutcomes<T> {
  /** Each chunk; a result other than `undefined` ends the following with it. */
  chunk(chunk: Uint8Array | string): T | undefined;
  end(): T;
  /** An `error`, or a `close` before `end`: the client went away mid-body. */
  failed: T;
  timedOut: T;
}

/**
 * Follows a Node readable's events until one of them, or `until` (a `Date.now()` timestamp),
 * gives a result: the body read, and its drain, both listen this way. One result, and every
 * listener removed with it: a stream may still emit after it ended or failed (`close` follows
 * both).
 */
export function followEmitter<T>(
  stream: Emitter,
  until: number,
  outcomes: EmitterOutcomes<T>,
): Promise<T> {
  return new Promise((resolve) => {
    const finish = (result: T) => {
      clearTimeout(timer);
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onFailure);
      stream.removeListener('close', onFailure);
      resolve(result);
    };
    const onData = (chunk: Uint8Array | string) => {
      const result = outcomes.chunk(chunk);
      if (result !== undefined) finish(result);
    };
    const onEnd = () => finish(outcomes.end());
    const onFailure = () => finish(outcomes.failed);
    const timer = timerUntil(until, () => finish(outcomes.timedOut));
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onFailure);
    stream.on('close', onFailure);
  });
}

/** A stream's chunks one at a time; `release` lets go of a Web stream's reader between reads. */
function pull(stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>): {
  next(): Promise<IteratorResult<Uint8Array | string>>;
  release(): void;
} {
  // Not every runtime makes a Web stream async-iterable; every one gives it a reader.
  if (typeof (stream as ReadableStream<Uint8Array>).getReader === 'function') {
    const reader = (stream as ReadableStream<Uint8Array>).getReader();
    return {
      next: () => reader.read() as Promise<IteratorResult<Uint8Array>>,
      release: () => reader.releaseLock(),
    };
  }
  const iterator = (stream as AsyncIterable<Uint8Array | string>)[Symbol.asyncIterator]();
  return { next: () => iterator.next(), release: () => {} };
}

function decode(bytes: Uint8Array, limits: BodyLimits): BodyRead {
  if (bytes.byteLength > limits.maxBytes) return TOO_LARGE;
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
 * True when part of the request's body may still be on the wire: the body was a stream, or one
 * the framework reads whole, that was not read to its end (refused on its headers, too large, too
 * slow, failing) although the request declares one, or the framework gave up on it.
 */
export function bodyLeftOnWire(
  request: Pick<DoorRequest, 'body' | 'header'>,
  readToEnd: boolean,
): boolean {
  const { kind } = request.body;
  if (kind === 'failed') return true;
  if ((kind !== 'stream' && kind !== 'whole') || readToEnd) return false;
  const length = request.header('content-length');
  return (
    request.header('transfer-encoding') !== undefined || (length !== undefined && length !== '0')
  );
}
