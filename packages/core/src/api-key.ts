import { matchSecret, readSecrets } from './secrets.js';

export { findWithoutEarlyExit, timingSafeEqual } from './secrets.js';

/**
 * Checks the `X-Api-Key` header value against the configured key, or against several keys at
 * once during a rotation. Constant time; a missing header never matches. Throws a TypeError when
 * there is no key or a key is empty: a configuration error, and it names no key.
 *
 * @example
 * checkApiKey(request.headers.get('x-api-key'), [process.env.KEY_NEW!, process.env.KEY_OLD!]);
 */
export function checkApiKey(
  received: string | null | undefined,
  expected: string | readonly string[],
): boolean {
  return matchSecret(received, readSecrets(expected, '[@questkit/core] apiKey'));
}
