/** Work started in the background (first delivery tries, endpoint checks), awaited by `idle()`. */
export interface BackgroundWork {
  /** Keeps `work` until it settles; returns it. */
  track<T>(work: Promise<T>): Promise<T>;
  /** Resolves once nothing tracked is running, including work started meanwhile. */
  idle(): Promise<void>;
  readonly size: number;
}

// Work finishing can start more work (a first try schedules nothing, but a claim's events do):
// idle() waits in rounds, a bounded number of them.
const MAX_IDLE_ROUNDS = 1000;

/** A tracker of background work. */
export function createBackgroundWork(): BackgroundWork {
  const running = new Set<Promise<unknown>>();
  return {
    track(work) {
      const settled = work.then(
        () => undefined,
        () => undefined,
      );
      running.add(settled);
      void settled.then(() => running.delete(settled));
      return work;
    },
    async idle() {
      for (let round = 0; round < MAX_IDLE_ROUNDS && running.size > 0; round++) {
        await Promise.all([...running]);
      }
    },
    get size() {
      return running.size;
    },
  };
}
