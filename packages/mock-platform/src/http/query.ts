/**
 * The query parameters of a request URL; a repeated parameter counts once, with its first value.
 * Only the query string is parsed, by the same URLSearchParams a whole URL would use: parsing the
 * URL first cost ~1.7 µs of a lookup's ~60 (`pnpm bench --only mock:lookup-*`, two A/B runs:
 * lookups 0.78 -> 0.81 and 0.81 -> 0.85 of the cheapest route, +4 %; the full run after it:
 * 0.78-0.82, lookup CPU 58-60 -> 55-57 µs).
 */
export function queryParams(url: string): Record<string, string> {
  const query: Record<string, string> = {};
  const start = url.indexOf('?');
  if (start < 0) return query;
  const end = url.indexOf('#', start);
  const search = url.slice(start + 1, end < 0 ? undefined : end);
  for (const [key, value] of new URLSearchParams(search)) if (!(key in query)) query[key] = value;
  return query;
}
