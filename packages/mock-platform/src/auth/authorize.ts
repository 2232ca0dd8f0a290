import { API_ACCESS, type ApiAccess } from '@questkit/core/api';
import { type ApiFailure, apiError } from '../errors.js';
import { type CommunityRecord, isBanned } from '../store/records.js';
import type { Store } from '../store/store.js';
import type { Principal } from './principal.js';

/** Who may call a route: core's access levels (see `API_ACCESS` in `@questkit/core/api`). */
export const ROUTE_ACCESS = API_ACCESS;
/** Who may call a route; see {@link ROUTE_ACCESS}. */
export type RouteAccess = ApiAccess;

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
  if (!member || isBanned(member)) {
    return apiError(403, 'This member is banned from the community');
  }
  if (member.deletedAt !== null) return apiError(403, 'This member account is deleted');
  if (member.role === 'admin' || access === 'read') return null;
  if (access === 'self' && selfId === member.id) return null;
  const needs =
    access === 'self' ? 'the admin role, or to be the member named in the path' : 'the admin role';
  return apiError(403, `This route needs ${needs}`);
}
