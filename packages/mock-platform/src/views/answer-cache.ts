import type { Store } from '../store/store.js';

// The JSON texts of the hottest answers (a member by id or identifier, a page of quests or
// webhooks), kept while the store's version stays: any write moves it and drops them all, so an
// answer cannot be stale whatever it reads. What it saves: bench/README.md, "Where the time goes".

/** Texts kept at most; past it they are dropped at once (a load of distinct members, say). */
const MAX_TEXTS = 20_000;

const kept = new WeakMap<Store, { version: number; texts: Map<string, string> }>();

/**
 * The text `make()` returns for `key`, made once per version of the store. The key names
 * everything the text depends on besides the store: the route, the ids and whether secrets show.
 * A store without a version keeps nothing.
 */
export function cachedJson(store: Store, key: string, make: () => string): string {
  const version = store.version;
  if (version === undefined) return make();
  let cache = kept.get(store);
  if (!cache || cache.version !== version || cache.texts.size >= MAX_TEXTS) {
    cache = { version, texts: new Map() };
    kept.set(store, cache);
  }
  let text = cache.texts.get(key);
  if (text === undefined) {
    text = make();
    cache.texts.set(key, text);
  }
  return text;
}
