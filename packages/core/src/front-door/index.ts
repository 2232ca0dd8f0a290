import type { DoorRequest } from '../adapter/door.js';
import type { MaybePromise } from '../maybe-promise.js';
import { drainBody } from './drain.js';
import { type BodyRead, bodyLeftOnWire, readBody } from './read-body.js';

export { beforeDeadline, TIMED_OUT } from './deadline.js';
export type { BodyFailure, BodyRead } from './read-body.js';

/**
 * The front of every door endpoint (verification, connect, webhooks): what each does before its
 * own work, the same way for all three. It reads the method, counts the deadline from the
 * request's arrival, reads the body within a size limit (the declared length checked before the
 * first byte) and that deadline, and decides by one rule whether the answer closes the
 * connection.
 */
export interface FrontDoor {
  /** The HTTP method, upper-cased. */
  readonly method: string;
  /** When the answer is due: a `Date.now()` timestamp counted from the request's arrival. */
  readonly deadline: number;
  /** The body, within `maxBytes` and the deadline. Never throws. */
  read(maxBytes: number): Promise<BodyRead>;
  /**
   * Whether the answer closes the connection, called once the answer is decided. A body not read
   * to its end is first read and discarded within bounds (see `drainBody`), so that a client
   * still sending it reads the answer rather than a reset; what is still on the wire then, or a
   * body the framework gave up on, closes the connection, so it is never read as the next request
   * of a kept-alive connection. A promise only while it drains.
   */
  close(): MaybePromise<boolean>;
}

/** Opens the front door of one request; `timeoutMs` counts from its arrival. */
export function frontDoor(request: DoorRequest, timeoutMs: number): FrontDoor {
  const deadline = (request.receivedAt ?? Date.now()) + timeoutMs;
  let readToEnd = false;
  return {
    method: request.method.toUpperCase(),
    deadline,
    read(maxBytes) {
      const reading = readBody(request, { maxBytes, deadline });
      // A reaction of its own rather than a step of the chain: reactions run in the order they
      // were registered, so `readToEnd` is set before the caller's `await` resumes, and the
      // caller's chain is one promise shorter.
      reading.then((read) => {
        readToEnd = read.ok;
      });
      return reading;
    },
    close: () =>
      bodyLeftOnWire(request, readToEnd)
        ? drainBody(request, deadline).then((drained) => !drained)
        : false,
  };
}
