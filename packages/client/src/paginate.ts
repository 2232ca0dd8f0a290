import type { ApiOperation } from '@questkit/core/api';

// How each list pages is core's contract (`paging` in the operation's definition): the page
// size's name and largest value, where the items are, and how the next page is asked for. Without
// a page size, the largest is asked for: fewer calls for the same items.

/** More pages than any list can hold (100 per page): the bound of a cursor that never ends. */
const MAX_PAGES = 10_000;

type Call = (input: Record<string, unknown>) => Promise<unknown>;

/** Every item of every page of a list, in order, until the end or `maxItems`. */
export async function* paginate(
  call: Call,
  operation: ApiOperation,
  input: Record<string, unknown>,
): AsyncGenerator<never, void, undefined> {
  const paging = operation.paging;
  if (!paging) {
    throw new TypeError(`[@questkit/client] ${operation.operationId} is not a list that pages`);
  }
  const { next } = paging;
  const { maxItems, ...rest } = input as { maxItems?: number } & Record<string, unknown>;
  let left = maxItems ?? Number.POSITIVE_INFINITY;
  if (left <= 0) return;
  const size = Number(rest[paging.size] ?? paging.maxSize);
  let position: unknown = next.kind === 'page-number' ? next.first : null;
  for (let count = 0; count < MAX_PAGES; count += 1) {
    const answer = await call({ ...rest, [paging.size]: size, [next.param]: position });
    const list = paging.items === null ? answer : (answer as Record<string, unknown>)[paging.items];
    const items = (list ?? []) as unknown[];
    for (const item of items) {
      yield item as never;
      left -= 1;
      if (left <= 0) return;
    }
    if (next.kind === 'answer-field') {
      position = (answer as Record<string, unknown>)[next.field] ?? null;
      if (position === null || items.length === 0) return;
      continue;
    }
    if (items.length < size) return;
    position =
      next.kind === 'last-id' ? (items.at(-1) as { id: string }).id : (position as number) + 1;
  }
}
