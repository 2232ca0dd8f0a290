/** One request the public API served, as the mock recorded it. */
export interface RequestRecord {
  at: string;
  method: string;
  /** The path, without the query. */
  path: string;
  /** The route's operationId. */
  operationId: string;
  status: number;
  /** `key:<key id>` or `member:<user id>`; null when authentication failed. */
  principal: string | null;
  /** The `x-svc-mcp-client` header, when sent and valid. */
  mcpClient: string | null;
  /** The `x-svc-confirmation-token` header, when sent and valid. */
  confirmationToken: string | null;
}

/** The last requests, oldest first, bounded. */
export interface ServedRequests {
  record(entry: RequestRecord): void;
  list(): readonly RequestRecord[];
  clear(): void;
}

/** A journal keeping the last `size` requests, in a ring so each record costs O(1). */
export function createServedRequests(size: number): ServedRequests {
  let ring: RequestRecord[] = [];
  let next = 0;
  return {
    record(entry) {
      if (size <= 0) return;
      if (ring.length < size) ring.push(entry);
      else ring[next] = entry;
      next = (next + 1) % size;
    },
    list: () => (ring.length < size ? [...ring] : [...ring.slice(next), ...ring.slice(0, next)]),
    clear() {
      ring = [];
      next = 0;
    },
  };
}
