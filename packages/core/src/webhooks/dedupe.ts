import type { MaybePromise } from '../maybe-promise.js';

/**
 * Where a webhook receiver keeps the ids of the events it handled: deliveries come at least once
 * (retries and replays repeat the event id). Back it with a shared store (Redis with an expiry,
 * say) so that several instances deduplicate together.
 */
export interface WebhookDedupe {
  /** true when the event was handled already. */
  seen(id: string): MaybePromise<boolean>;
  /** Called once the event's handler succeeded. */
  remember(id: string): MaybePromise<void>;
}

/**
 * The default store: the last `size` event ids in this process's memory (oldest forgotten first).
 *
 * @example
 * const dedupe = createMemoryDedupe(50_000);
 */
export function createMemoryDedupe(size = 10_000): WebhookDedupe {
  if (!Number.isSafeInteger(size) || size < 1) {
    throw new TypeError('[@questkit/core] webhooks: the dedupe size must be a positive integer');
  }
  const ids = new Set<string>();
  return {
    seen: (id) => ids.has(id),
    remember(id) {
      ids.delete(id);
      ids.add(id);
      if (ids.size > size) ids.delete(ids.values().next().value!);
    },
  };
}
