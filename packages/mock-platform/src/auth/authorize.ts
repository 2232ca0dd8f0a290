import { type ApiFailure, apiError } from '../http/errors.js';
import type { CommunityRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import type { Principal } from './principal.js';

/**
 * Who may call a route.
 * - `any`: any valid API key, of any community (the community lookup).
 * - `read`: a key of the community (either scope) or a member of it.
 * - `self`: a key of the community, an admin of it, or the member the path names.
 * - `admin`: a key of the community (either scope) or an admin of it.
 * - `write`: a read-write key of the community or an admin of it.
 * Banned and deleted members are refused everywhere.
 */
export const ROUTE_ACCESS = ['any', 'read', 'self', 'admin', 'write'] as const;
/** Who may call a route; see {@link ROUTE_ACCESS}. */
export type RouteAccess = (typeof ROUTE_ACCESS)[number];

/**
 * Decides whether an authenticated caller may act on this community: null when allowed, else a
 * 403 that says why.
 */
export function authorize(
  principal: Principal,
  community: CommunityRecord,
  access: RouteAccess,
  selfId: string | undefined,
  store: Store,
): ApiFailure | null {
  if (principal.kind === 'api-key') {
    if (access === 'any') return null;
    if (principal.communityId !== community.id) {
      return apiError(403, `This API key belongs to another community than ${community.subdomain}`);
    }
    if (access === 'write' && principal.scope !== 'read-write') {
      return apiError(403, 'This API key is read-only; this route needs a read-write key');
    }
    return null;
  }
  if (principal.communityId !== community.id) {
    return apiError(
      403,
      `This member token belongs to another community than ${community.subdomain}`,
    );
  }
  const member = store.users.get(principal.userId);
  if (!member || member.isBanned || member.role === 'banned') {
    return apiError(403, 'This member is banned from the community');
  }
  if (member.deletedAt !== null) return apiError(403, 'This member account is deleted');
  if (member.role === 'admin' || access === 'read') return null;
  if (access === 'self' && selfId === member.id) return null;
  const needs =
    access === 'self' ? 'the admin role, or to be the member named in the path' : 'the admin role';
  return apiError(403, `This route needs ${needs}`);
}
