/** Runs at most `size` tasks at once; the others wait their turn, first come first served. */
export interface Limiter {
  run<T>(task: () => Promise<T>): Promise<T>;
}

/** A limiter of `size` concurrent tasks (outgoing HTTP calls, so a burst does not open 1000 sockets). */
export function createLimiter(size: number): Limiter {
  let running = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    running -= 1;
    const next = waiting.shift();
    if (next) {
      running += 1;
      next();
    }
  };
  return {
    async run(task) {
      if (running < size) running += 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
