// Sorted arrays with binary search: the per-community lists (quests, webhooks) stay in list order
// on every write, so a page is a slice and a cursor a binary search, never a sort per request.

/** A total order: negative, zero or positive, as Array.prototype.sort expects. */
export type Compare<T> = (a: T, b: T) => number;

/** The first index whose item is not before `item` (lower bound). */
export function lowerBound<T>(items: readonly T[], item: T, compare: Compare<T>): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compare(items[middle]!, item) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Inserts `item` at its place in the sorted `items`. */
export function insertSorted<T>(items: T[], item: T, compare: Compare<T>): void {
  items.splice(lowerBound(items, item, compare), 0, item);
}

/** Removes the item that compares equal to `item`; false when none does. */
export function removeSorted<T>(items: T[], item: T, compare: Compare<T>): boolean {
  const index = lowerBound(items, item, compare);
  if (index < items.length && compare(items[index]!, item) === 0) {
    items.splice(index, 1);
    return true;
  }
  return false;
}

/** Orders by a timestamp (ISO 8601, any offset), then by id. */
export function byTimeThenId<T extends { id: string }>(time: (item: T) => string): Compare<T> {
  return (a, b) => {
    const difference = Date.parse(time(a)) - Date.parse(time(b));
    if (difference !== 0) return difference;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
}
