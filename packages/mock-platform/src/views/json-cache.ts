// The JSON text of a list item, made once per record. A full page of 100 quests or webhooks spent
// most of its time in JSON.stringify: with 100k members the quest page ran at 0.13 of the
// cheapest route and the webhook page at 0.24 (`pnpm bench`, mock suite); joining cached texts
// brings them to the figures in the README's bench table.
//
// It is safe because records are values: the store never changes one in place, a change puts a
// new object (`put`, `update`), so a text cached for an object can never go stale, and the
// WeakMap lets a replaced record and its texts be collected.

/** How an item is shown: what else its view reads besides the record itself. */
interface Variant {
  /** Another record the view reads (the quest list reads the community), or null. */
  context: object | null;
  /** Whether secrets are shown (read-write callers) or masked. */
  reveal: boolean;
}

/** A cache of JSON texts of one kind of record. */
export interface JsonCache<R extends object> {
  /** The JSON of `view()`, made on the first call for this record and variant. */
  text(record: R, variant: Variant, view: () => unknown): string;
}

/** A new cache. */
export function createJsonCache<R extends object>(): JsonCache<R> {
  // Two slots per record, masked and revealed: both kinds of caller read the same lists.
  const texts = new WeakMap<R, { context: object | null; masked?: string; revealed?: string }>();
  return {
    text(record, { context, reveal }, view) {
      let entry = texts.get(record);
      if (!entry || entry.context !== context) {
        entry = { context };
        texts.set(record, entry);
      }
      const slot = reveal ? 'revealed' : 'masked';
      entry[slot] ??= JSON.stringify(view());
      return entry[slot];
    },
  };
}

/** `[a,b,c]` from item texts. */
export function jsonArray(items: readonly string[]): string {
  return `[${items.join(',')}]`;
}
