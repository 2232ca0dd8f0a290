import type { PaginatedOperationId } from './types.js';

// How each list pages, as the contract and the mock define it:
// - listQuests: `cursor` is the id of the last quest of the previous page; a page shorter than
//   `limit` is the last;
// - listWebhooks: `nextCursor` of the previous page, null at the end;
// - listInvites: `page` from 1 with `page_size`; a short page is the last;
// - listWebhookDeliveries: `page` from 0 with `limit`; a short page is the last.
// Without a page size, the largest is asked for: fewer calls for the same items.

const MAX_PAGE = 100;
/** More pages than any list can hold (100 per page): the bound of a cursor that never ends. */
const MAX_PAGES = 10_000;

type Call = (operationId: PaginatedOperationId, input: Record<string, unknown>) => Promise<unknown>;

/** Every item of every page of a list, in order, until the end or `maxItems`. */
export async function* paginate(
  call: Call,
  operationId: PaginatedOperationId,
  input: Record<string, unknown>,
): AsyncGenerator<never, void, undefined> {
  const { maxItems, ...rest } = input as { maxItems?: number } & Record<string, unknown>;
  let left = maxItems ?? Number.POSITIVE_INFINITY;
  if (left <= 0) return;
  const sizeName = operationId === 'listInvites' ? 'page_size' : ('limit' as 'page_size' | 'limit');
  const size = Number(rest[sizeName] ?? MAX_PAGE);
  let cursor: string | null = null;
  let page = operationId === 'listInvites' ? 1 : 0;
  for (let count = 0; count < MAX_PAGES; count += 1) {
    const pageInput: Record<string, unknown> = { ...rest, [sizeName]: size };
    if (operationId === 'listQuests' || operationId === 'listWebhooks') pageInput.cursor = cursor;
    else pageInput.page = page;
    const answer = await call(operationId, pageInput);
    const items = (Array.isArray(answer) ? answer : (answer as { items: unknown[] }).items) ?? [];
    for (const item of items) {
      yield item as never;
      left -= 1;
      if (left <= 0) return;
    }
    if (operationId === 'listWebhooks') {
      cursor = (answer as { nextCursor: string | null }).nextCursor;
      if (cursor === null || items.length === 0) return;
    } else {
      if (items.length < size) return;
      if (operationId === 'listQuests') cursor = (items.at(-1) as { id: string }).id;
      else page += 1;
    }
  }
}
