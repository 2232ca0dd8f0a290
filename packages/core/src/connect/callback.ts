import type { HmacKey } from '../hmac.js';
import { connectKeys } from './keys.js';
import { signUrlWith } from './sign.js';

const HTTP_PREFIX = /^https?:\/\//i;
// Browsers and servers drop tabs and newlines and read `\` as `/`: a callback that needs them
// is either broken or built to make two URL parsers disagree.
const AMBIGUOUS_CHARACTERS = /[\u0000-\u001f\u007f\\]/;

/**
 * Parses a callback URL of the connect flow, or null when it is not a plain absolute `http:` or
 * `https:` URL: relative and protocol-relative (`//evil.example`) paths, other schemes
 * (`javascript:`, `data:`), credentials (`https://user@host`) and ambiguous characters are refused.
 */
export function parseCallbackUrl(value: string): URL | null {
  if (!HTTP_PREFIX.test(value) || AMBIGUOUS_CHARACTERS.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  // `https://@host` parses with empty credentials, so look for `@` in the authority as written.
  const authority = value.replace(HTTP_PREFIX, '').split(/[/?#]/, 1)[0] ?? '';
  if (url.username !== '' || url.password !== '' || authority.includes('@')) return null;
  return url;
}

/**
 * The community side's answer of the identity-connect flow: sets `identifier` (the platform's id
 * for the member, replacing any value already there) on the callback URL the service sent, then
 * signs the result with {@link signUrl}. Redirect the member to the URL it resolves to.
 *
 * Throws a TypeError, at the call, when the callback is not an absolute http(s) URL, the identifier is empty or
 * the secret is empty: read the callback with `readConnectRedirect`, which checks it first.
 *
 * @example
 * const redirect = readConnectRedirect(request.url, secret);
 * if (redirect.ok) {
 *   return Response.redirect(await buildConnectCallback(redirect.callback, member.id, secret), 302);
 * }
 */
export function buildConnectCallback(
  callback: string,
  identifier: string,
  secret: string,
): Promise<string> {
  return buildConnectCallbackWith(callback, identifier, connectKeys(secret)[0]!);
}

/** {@link buildConnectCallback} with a key imported once. */
export function buildConnectCallbackWith(
  callback: string,
  identifier: string,
  key: HmacKey,
): Promise<string> {
  const url = typeof callback === 'string' ? parseCallbackUrl(callback) : null;
  if (url === null) {
    throw new TypeError(
      '[@questkit/core] buildConnectCallback: callback must be an absolute http(s) URL',
    );
  }
  if (typeof identifier !== 'string' || identifier.length === 0) {
    throw new TypeError(
      '[@questkit/core] buildConnectCallback: identifier must be a non-empty string',
    );
  }
  url.searchParams.set('identifier', identifier);
  return signUrlWith(url, key);
}
