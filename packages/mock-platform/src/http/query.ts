/**
 * The query parameters of a request URL; a repeated parameter counts once, with its first value.
 * Only the query string is parsed, by the same URLSearchParams a whole URL would use: a lookup
 * needs no other part of the URL.
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
