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

/** A cache of whole list pages: the JSON array text of a page of records. */
export interface PageCache<R extends object> {
  /**
   * The text `build()` makes for these records, kept while a page holds the very same records
   * (by identity: a changed record is a new object) in the same order, for the same variant.
   */
  text(records: readonly R[], variant: Variant, build: () => string): string;
}

/** Pages kept per list: the pages a client walks, a few variants each. */
const PAGES_KEPT = 16;

/**
 * A new page cache. Measured with `pnpm bench --only mock:quest-list` (100k members, a page of
 * 100 quests): 0.39 of the cheapest route when each page joined its cached item texts, 0.88 when
 * the page's text itself was kept.
 */
export function createPageCache<R extends object>(): PageCache<R> {
  let pages: { records: readonly R[]; context: object | null; reveal: boolean; text: string }[] =
    [];
  const same = (a: readonly R[], b: readonly R[]) =>
    a.length === b.length && a.every((record, index) => record === b[index]);
  return {
    text(records, { context, reveal }, build) {
      const hit = pages.find(
        (page) => page.context === context && page.reveal === reveal && same(page.records, records),
      );
      if (hit) return hit.text;
      const text = build();
      pages = [{ records: [...records], context, reveal, text }, ...pages].slice(0, PAGES_KEPT);
      return text;
    },
  };
}

/** `[a,b,c]` from item texts. */
export function jsonArray(items: readonly string[]): string {
  return `[${items.join(',')}]`;
}
