// The positional cursor of the lists that page by (createdAt, id): the sort key of the page's last
// item, base64url encoded. Opaque to clients; positional, so deleting that item or changing its
// state does not break the walk.

/** The place in a list that a cursor stands for. */
export interface CursorKey {
  createdAt: string;
  id: string;
}

/** The cursor after `item`. */
export function encodeCursor({ createdAt, id }: CursorKey): string {
  return btoa(`${createdAt}|${id}`).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** The place a cursor of {@link encodeCursor} stands for; undefined for anything else. */
export function decodeCursor(cursor: string): CursorKey | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  let text: string;
  try {
    text = atob(cursor.replaceAll('-', '+').replaceAll('_', '/'));
  } catch {
    return undefined;
  }
  const match = /^([^|]+)\|([0-9a-f-]{36})$/.exec(text);
  if (!match || Number.isNaN(Date.parse(match[1]!))) return undefined;
  return { createdAt: match[1]!, id: match[2]! };
}
