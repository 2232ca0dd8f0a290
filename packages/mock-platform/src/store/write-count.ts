// The store's one write path, as far as caches are concerned: every method of a part that is not
// a read counts as a write and moves the store's version. Reads are named so (get, list, find,
// count); a new method is a write unless its name says otherwise, so a forgotten one costs a
// cache miss, never a stale answer.

const READ = /^(get|list|find|count)/;

/** `part` whose every writing method calls `wrote()` once it has run (or thrown). */
export function countWrites<T extends object>(part: T, wrote: () => void): T {
  const counted = {} as T;
  for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(part))) {
    const method: unknown = descriptor.value;
    if (typeof method === 'function' && !READ.test(name)) {
      descriptor.value = (...args: unknown[]) => {
        try {
          return method.apply(part, args);
        } finally {
          wrote();
        }
      };
    }
    Object.defineProperty(counted, name, descriptor);
  }
  return counted;
}
