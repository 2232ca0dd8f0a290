/** What a race against a {@link Deadline} yields when the deadline passes first. */
export const TIMED_OUT = Symbol('timed out');

/** A timer to race work against: `passed` settles with {@link TIMED_OUT}; `clear` stops it. */
export interface Deadline {
  passed: Promise<typeof TIMED_OUT>;
  clear(): void;
}

/**
 * Starts a timer that ends at `deadline` (a `Date.now()` timestamp). Reading a body and running
 * the handler both race against one, so neither can hold a request past the platform's limit.
 */
export function startDeadline(deadline: number): Deadline {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const passed = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), Math.max(0, deadline - Date.now()));
  });
  return { passed, clear: () => clearTimeout(timer) };
}
