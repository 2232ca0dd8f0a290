import type { ApiKeyScope } from '../store/records.js';

/** Who is calling: a community API key, or a member with a token the mock issued. */
export type Principal =
  | { kind: 'api-key'; keyId: string; communityId: string; scope: ApiKeyScope }
  | { kind: 'member'; userId: string; communityId: string };

/** The name of a principal in logs, the journal and rate-limit buckets (never the secret). */
export function principalLabel(principal: Principal): string {
  return principal.kind === 'api-key' ? `key:${principal.keyId}` : `member:${principal.userId}`;
}
