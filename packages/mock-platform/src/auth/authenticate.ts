import { findWithoutEarlyExit, timingSafeEqual } from '@questkit/core';
import { type ApiFailure, apiError } from '../errors.js';
import type { Store } from '../store/store.js';
import type { Principal } from './principal.js';
import type { MemberTokens } from './tokens.js';

/** The outcome of authentication: who calls, or a 401. */
export type Authenticated = { ok: true; principal: Principal } | { ok: false; failure: ApiFailure };

const unauthorized = (message: string): Authenticated => ({
  ok: false,
  failure: apiError(401, message),
});

/**
 * The community API key equal to `received`. Every key is compared in constant time, with no
 * early exit, so timing tells nothing of which key or how much of it matched.
 */
function findApiKey(store: Store, received: string) {
  return findWithoutEarlyExit(store.apiKeys.list(), (key) => timingSafeEqual(received, key.key));
}

/**
 * Finds who calls from the `x-api-key` and `authorization` headers. `x-api-key` wins when both
 * are sent; `apiKeyOnly` routes (community lookup, modules, quest creation) read only it. No
 * credential, an unknown key, a malformed, foreign or expired token: 401.
 */
export async function authenticate(
  headers: Headers,
  apiKeyOnly: boolean,
  store: Store,
  tokens: MemberTokens,
): Promise<Authenticated> {
  const apiKey = headers.get('x-api-key');
  if (apiKey) {
    const key = findApiKey(store, apiKey);
    if (!key) return unauthorized('The x-api-key header does not match any API key');
    return {
      ok: true,
      principal: { kind: 'api-key', keyId: key.id, communityId: key.communityId, scope: key.scope },
    };
  }
  const authorization = headers.get('authorization');
  if (apiKeyOnly) {
    return unauthorized(
      authorization
        ? 'This route reads the API key from the x-api-key header only, not from authorization: send x-api-key: <API key>'
        : 'This route requires the x-api-key header',
    );
  }
  if (!authorization) {
    return unauthorized(
      'Missing credentials: send x-api-key, or authorization: Bearer <member token>',
    );
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) return unauthorized('The authorization header must be "Bearer <member token>"');
  const claims = await tokens.verify(match[1]!);
  if ('refused' in claims) {
    return unauthorized(
      claims.refused === 'expired'
        ? 'The member token has expired'
        : // Clients of old paths send the API key as a bearer token: say where it goes.
          'The member token is not valid (an API key goes in the x-api-key header, not in authorization: Bearer)',
    );
  }
  const member = store.users.get(claims.userId);
  if (!member || member.communityId !== claims.communityId) {
    return unauthorized('The member of this token no longer exists');
  }
  return { ok: true, principal: { kind: 'member', ...claims } };
}
