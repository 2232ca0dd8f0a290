import type { ApiKeyScope } from '../store/records.js';

/** Who is calling: a community API key, or a member with a token the mock issued. */
export type Principal =
  | { kind: 'api-key'; keyId: string; communityId: string; scope: ApiKeyScope }
  | { kind: 'member'; userId: string; communityId: string };

/** The name of a principal in logs, the journal and rate-limit buckets (never the secret). */
export function principalLabel(principal: Principal): string {
  return principal.kind === 'api-key' ? `key:${principal.keyId}` : `member:${principal.userId}`;
}

/**
 * Whether a caller may read secrets (webhook secrets, tasks' API keys): a read-write key or a
 * member (the routes that show them need the admin role). A read-only key sees them masked.
 */
export function mayReadSecrets(principal: Principal): boolean {
  return principal.kind === 'member' || principal.scope === 'read-write';
}
