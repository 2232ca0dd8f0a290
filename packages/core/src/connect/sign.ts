import type { HmacKey } from '../secrets.js';
import { canonicalize, parseUrl, SIGNATURE_PARAM } from './canonical.js';
import { connectKeys } from './keys.js';

/**
 * Signs `url` for the identity-connect flow: returns its canonical form (no fragment, no
 * `signature`, query re-serialized by `URLSearchParams`) with `signature=<hex HMAC-SHA256 of that
 * form>` appended as the last parameter. An unparseable URL or an empty secret throws a TypeError.
 *
 * @example
 * const signed = signUrl('https://app.example.com/connect?svcUserId=u-1', process.env.CONNECT_SECRET!);
 * // 'https://app.example.com/connect?svcUserId=u-1&signature=3f1c…'
 */
export function signUrl(url: string | URL, secret: string): string {
  return signUrlWith(url, connectKeys(secret)[0]!);
}

/** {@link signUrl} with a key prepared once. */
export function signUrlWith(url: string | URL, mac: HmacKey): string {
  const parsed = parseUrl(url);
  if (parsed === null) throw new TypeError('[@questkit/core] signUrl: url must be an absolute URL');
  canonicalize(parsed);
  const canonical = parsed.href;
  const separator = parsed.search === '' ? '?' : '&';
  return `${canonical}${separator}${SIGNATURE_PARAM}=${mac(canonical)}`;
}
