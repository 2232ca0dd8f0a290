import { Sema } from 'async-sema';

/** A fixed number of slots: tasks run in a free one, the others wait their turn, first come first served. */
export interface Slots {
  readonly size: number;
  /** Whether `maxWaiting` tasks already wait for a slot: the next one would be refused. */
  full(): boolean;
  /** Runs `task` in a free slot, waiting for one first; the slot is freed when it settles. */
  run<T>(task: () => Promise<T>): Promise<T>;
}

/**
 * `size` slots with at most `maxWaiting` waiters (outgoing HTTP calls, so a burst does not open a
 * thousand sockets). The queue is async-sema's: FIFO, a freed slot handed to the first waiter.
 *
 * @example
 * const slots = createSlots(64);
 * const answer = await slots.run(() => fetch(url));
 */
export function createSlots(size: number, maxWaiting = Number.POSITIVE_INFINITY): Slots {
  const sema = new Sema(size);
  return {
    size,
    full: () => sema.nrWaiting() >= maxWaiting,
    async run(task) {
      await sema.acquire();
      try {
        return await task();
      } finally {
        sema.release();
      }
    },
  };
}
