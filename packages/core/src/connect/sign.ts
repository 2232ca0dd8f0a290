import { type HmacKey, hmacHex } from '../hmac.js';
import { canonicalize, parseUrl, SIGNATURE_PARAM } from './canonical.js';
import { connectKeys } from './keys.js';

/**
 * Signs `url` for the identity-connect flow: resolves to its canonical form (no fragment, no
 * `signature`, query re-serialized by `URLSearchParams`) with `signature=<hex HMAC-SHA256 of that
 * form>` appended as the last parameter. An unparseable URL or an empty secret throws a TypeError
 * at the call.
 *
 * @example
 * const signed = await signUrl('https://app.example.com/connect?svcUserId=u-1', process.env.CONNECT_SECRET!);
 * // 'https://app.example.com/connect?svcUserId=u-1&signature=3f1c…'
 */
export function signUrl(url: string | URL, secret: string): Promise<string> {
  const key = connectKeys(secret)[0]!;
  return signCanonical(canonicalUrl(url), key);
}

/** {@link signUrl} with a key imported once. */
export function signUrlWith(url: string | URL, key: HmacKey): Promise<string> {
  return signCanonical(canonicalUrl(url), key);
}

function canonicalUrl(url: string | URL): URL {
  const parsed = parseUrl(url);
  if (parsed === null) throw new TypeError('[@questkit/core] signUrl: url must be an absolute URL');
  canonicalize(parsed);
  return parsed;
}

async function signCanonical(canonical: URL, key: HmacKey): Promise<string> {
  const separator = canonical.search === '' ? '?' : '&';
  return `${canonical.href}${separator}${SIGNATURE_PARAM}=${await hmacHex(key, canonical.href)}`;
}
