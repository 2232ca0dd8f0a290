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
  /**
   * The other records the view reads, in a fixed order: the quest list reads the community, a
   * member's answer the member's invites and each invitee (for its xp); empty when none.
   */
  dependsOn: readonly object[];
  /** Whether secrets are shown (read-write callers) or masked. */
  reveal: boolean;
}

/** Same length, and the very same objects in the same order. */
function sameObjects(a: readonly object[], b: readonly object[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

/** A cache of JSON texts of one kind of record. */
export interface JsonCache<R extends object> {
  /** The JSON of `view()`, made on the first call for this record and variant. */
  text(record: R, variant: Variant, view: () => unknown): string;
}

/** A new cache. */
export function createJsonCache<R extends object>(): JsonCache<R> {
  // Two slots per record, masked and revealed: both kinds of caller read the same lists.
  const texts = new WeakMap<
    R,
    { dependsOn: readonly object[]; masked?: string; revealed?: string }
  >();
  return {
    text(record, { dependsOn, reveal }, view) {
      let entry = texts.get(record);
      if (!entry || !sameObjects(entry.dependsOn, dependsOn)) {
        entry = { dependsOn };
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
  let pages: {
    records: readonly R[];
    dependsOn: readonly object[];
    reveal: boolean;
    text: string;
  }[] = [];
  return {
    text(records, { dependsOn, reveal }, build) {
      const hit = pages.find(
        (page) =>
          page.reveal === reveal &&
          sameObjects(page.dependsOn, dependsOn) &&
          sameObjects(page.records, records),
      );
      if (hit) return hit.text;
      const text = build();
      pages = [{ records: [...records], dependsOn, reveal, text }, ...pages].slice(0, PAGES_KEPT);
      return text;
    },
  };
}

/** `[a,b,c]` from item texts. */
export function jsonArray(items: readonly string[]): string {
  return `[${items.join(',')}]`;
}
