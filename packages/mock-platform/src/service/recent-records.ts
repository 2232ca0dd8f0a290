// The journals of the service (calls, claims): the last `size` records, oldest first, filtered
// by equality on a few fields, and heard live by the dashboard. One mechanism for both.

/** A journal of records of type `T`, filtered on the fields `K`. */
export interface RecentRecords<T, K extends keyof T> {
  /** Adds a record, dropping the oldest past the size. */
  record(entry: T): void;
  /** The records kept, oldest first; those matching every given field of `filter`. */
  list(filter?: Partial<Pick<T, K>>): T[];
  /** Forgets every record. */
  clear(): void;
  /** Hears every record from now on; returns the unsubscribe. */
  subscribe(listener: (entry: T) => void): () => void;
}

/**
 * Whether `entry` has every value `filter` gives (a field absent or undefined matches any): the
 * one filter of the mock's record lists.
 */
export function matches<T>(entry: T, filter: Partial<T>): boolean {
  return (Object.keys(filter) as Array<keyof T>).every(
    (field) => filter[field] === undefined || entry[field] === filter[field],
  );
}

/** A journal keeping the last `size` records (none when `size` is 0), filterable on the fields `K`. */
export function createRecentRecords<T, K extends keyof T>(
  size: number,
): RecentRecords<T, K> & { entries(): readonly T[] } {
  let entries: T[] = [];
  const listeners = new Set<(entry: T) => void>();
  return {
    record(entry) {
      if (size > 0) {
        entries.push(entry);
        if (entries.length > size) entries = entries.slice(entries.length - size);
      }
      for (const listener of listeners) listener(entry);
    },
    list(filter = {}) {
      return entries.filter((entry) => matches<T>(entry, filter as Partial<T>));
    },
    entries: () => entries,
    clear() {
      entries = [];
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
