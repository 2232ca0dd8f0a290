/** Walks the mock's paginated lists through its public API, for consistency checks. */

const MAX_PAGES = 10_000;

/** Every quest of the list, following `cursor` = the id of the last quest of the previous page. */
export async function walkQuests(
  origin: string,
  key: string,
  limit: number,
): Promise<{ id: string; name: string; createdAt: string }[]> {
  const all: { id: string; name: string; createdAt: string }[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) });
    const response = await fetch(`${origin}/public/communities/demo/quests?${query}`, {
      headers: { 'x-api-key': key },
    });
    if (response.status !== 200)
      throw new Error(`quest list: ${response.status} ${await response.text()}`);
    const items = (await response.json()) as { id: string; name: string; createdAt: string }[];
    all.push(...items);
    if (items.length < limit) return all;
    cursor = items.at(-1)?.id;
  }
  throw new Error('quest list: too many pages');
}

/** Every webhook of the list, following the opaque `nextCursor` until null. */
export async function walkWebhooks(
  origin: string,
  key: string,
  limit: number,
): Promise<{ id: string; uri: string; success: number; failed: number; exhausted: number }[]> {
  const all: { id: string; uri: string; success: number; failed: number; exhausted: number }[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) });
    const response = await fetch(`${origin}/public/communities/demo/webhooks?${query}`, {
      headers: { 'x-api-key': key },
    });
    if (response.status !== 200)
      throw new Error(`webhook list: ${response.status} ${await response.text()}`);
    const body = (await response.json()) as { items: typeof all; nextCursor: string | null };
    all.push(...body.items);
    if (body.nextCursor === null) return all;
    cursor = body.nextCursor;
  }
  throw new Error('webhook list: too many pages');
}

/** A webhook's delivery records, every page, counted by status. */
export async function deliveryCounts(
  origin: string,
  key: string,
  webhookId: string,
): Promise<{
  records: { id: string; status: string; tries: number; eventType: string }[];
  byStatus: Record<string, number>;
}> {
  const records: { id: string; status: string; tries: number; eventType: string }[] = [];
  for (let page = 0; page <= 1000; page++) {
    const response = await fetch(
      `${origin}/public/communities/demo/webhooks/${webhookId}/events?limit=100&page=${page}`,
      { headers: { 'x-api-key': key } },
    );
    if (response.status !== 200)
      throw new Error(`deliveries: ${response.status} ${await response.text()}`);
    const body = (await response.json()) as { items: typeof records };
    records.push(...body.items);
    if (body.items.length < 100) break;
  }
  const byStatus: Record<string, number> = {};
  for (const record of records) byStatus[record.status] = (byStatus[record.status] ?? 0) + 1;
  return { records, byStatus };
}

/** Ids seen more than once. */
export function duplicates(ids: readonly string[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const id of ids) (seen.has(id) ? twice : seen).add(id);
  return [...twice];
}
