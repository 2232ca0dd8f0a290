import type { DoorRequest } from '../adapter/door.js';
import { beforeDeadline, TIMED_OUT } from './deadline.js';
import { type Emitter, followEmitter, isEmitter } from './read-body.js';

/**
 * How long, and how many bytes, the front door reads and discards of a body it refused before it
 * answers. Enough for any claim, and for the uploads a client sends by mistake; beyond it, the
 * answer closes the connection on what is left.
 */
export const DRAIN_MS = 1000;
/** The most bytes of a refused body the front door reads and discards (see {@link DRAIN_MS}). */
export const DRAIN_BYTES = 4 * 1024 * 1024;

/**
 * Reads and discards what is left of a request's body, so that the answer can go out on a
 * connection that no longer holds unread bytes. Resolves true when the body ended, false when it
 * is still on the wire (longer than the bounds, the deadline reached, or a body core cannot
 * drain). Never throws.
 *
 * An endpoint that answers a refused body and closes at once makes the kernel reset the
 * connection when the rest arrives: a client still sending then gets a write error and loses
 * the answer it had not read yet. Express's body-parser reads the whole body before it answers
 * for the same reason; this does it within {@link DRAIN_MS} and {@link DRAIN_BYTES}.
 *
 * Node requests and Web streams nobody holds are drained, whether core refused the body or the
 * framework failed on it (a `failed` body that names its stream). Any other body (an iterable, or
 * a `whole` one, such as Hono's `arrayBuffer()`, which would buffer it) is left alone.
 *
 * `deadline` is a `Date.now()` timestamp: the drain stops at it, or after {@link DRAIN_MS},
 * whichever comes first.
 *
 * @example
 * // A Node server that answered before the body ended keeps the connection only if it ended.
 * const ended = await drainBody({ body: { kind: 'stream', stream: req } }, Number.POSITIVE_INFINITY);
 * if (!ended) res.setHeader('connection', 'close');
 */
export function drainBody(request: Pick<DoorRequest, 'body'>, deadline: number): Promise<boolean> {
  const until = Math.min(deadline, Date.now() + DRAIN_MS);
  const { body } = request;
  const stream = body.kind === 'stream' || body.kind === 'failed' ? body.stream : undefined;
  if (stream === undefined || until <= Date.now()) return Promise.resolve(false);
  if (isEmitter(stream)) return drainEmitter(stream, until);
  const web = stream as ReadableStream<Uint8Array>;
  if (typeof web.getReader === 'function' && !web.locked) return drainWebStream(web, until);
  return Promise.resolve(false);
}

function drainEmitter(stream: Emitter, until: number): Promise<boolean> {
  if (stream.readableEnded) return Promise.resolve(true);
  if (stream.destroyed) return Promise.resolve(false);
  let total = 0;
  // A `data` listener makes a paused stream flow; once it is removed, whatever still arrives is
  // dropped unread, which the close that follows then cuts short.
  return followEmitter(stream, until, {
    chunk(chunk) {
      total += chunk.length;
      return total > DRAIN_BYTES ? false : undefined;
    },
    end: () => true,
    failed: false,
    timedOut: false,
  });
}

// A stream given up on is left locked and uncancelled, as readBody leaves it: cancelling a Node
// request's stream destroys its socket before the answer is written.
async function drainWebStream(stream: ReadableStream<Uint8Array>, until: number): Promise<boolean> {
  const reader = stream.getReader();
  let total = 0;
  try {
    for (;;) {
      const step = await beforeDeadline(reader.read(), until);
      if (step === TIMED_OUT) return false;
      if (step.done) return true;
      total += step.value.byteLength;
      if (total > DRAIN_BYTES) return false;
    }
  } catch {
    return false;
  }
}
