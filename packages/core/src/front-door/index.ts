import type { DoorRequest } from '../adapter/door.js';
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
  /** The body, within the size limit and the deadline. Never rejects. */
  read(): Promise<BodyRead>;
  /**
   * Whether part of the body may still be on the wire (see {@link FrontDoor.close}): when not,
   * the answer keeps the connection, and there is nothing to wait for.
   */
  leftOnWire(): boolean;
  /**
   * Whether the answer closes the connection, asked once the answer is decided. A body not read
   * to its end is first read and discarded within bounds (see `drainBody`), so that a client
   * still sending it reads the answer rather than a reset; what is still on the wire then, or a
   * body the framework gave up on, closes the connection, so it is never read as the next request
   * of a kept-alive connection.
   */
  close(): Promise<boolean>;
}

/** The limits of one endpoint's requests: the time from arrival to answer, the body's size. */
export interface DoorLimits {
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

/** Opens the front door of one request; the deadline counts from its arrival. */
export function frontDoor(request: DoorRequest, limits: DoorLimits): FrontDoor {
  const deadline = (request.receivedAt ?? Date.now()) + limits.timeoutMs;
  const bodyLimits = { maxBytes: limits.maxBytes, deadline };
  let readToEnd = false;
  const remember = (read: BodyRead) => {
    readToEnd = read.ok;
    return read;
  };
  return {
    method: request.method.toUpperCase(),
    deadline,
    // Not an async function: each one that waits costs a claim an allocation (bench/README.md).
    read: () => readBody(request, bodyLimits).then(remember),
    leftOnWire: () => bodyLeftOnWire(request, readToEnd),
    async close() {
      if (!bodyLeftOnWire(request, readToEnd)) return false;
      return !(await drainBody(request, deadline));
    },
  };
}
