import { type HmacKey, verifyHmacHex } from '../hmac.js';
import { findWithoutEarlyExit } from '../secrets.js';
import { canonicalize, parseUrl, rawSignedString, SIGNATURE_PARAM } from './canonical.js';
import { connectKeys } from './keys.js';

// Exactly 64 hex digits: a strict check, so no stray character is silently skipped.
const HEX_SIGNATURE = /^[0-9a-fA-F]{64}$/;

/** Why a signed URL was rejected. */
export type SignedUrlFailure =
  | 'invalid_url'
  | 'missing_signature'
  | 'duplicate_signature'
  | 'malformed_signature'
  | 'bad_signature';

/** The outcome of {@link verifySignedUrl}. */
export type VerifiedUrl =
  | {
      readonly ok: true;
      /** The canonical URL: no fragment, no `signature` parameter. */
      readonly url: URL;
      /** The signed query parameters (the `searchParams` of `url`). */
      readonly params: URLSearchParams;
    }
  | { readonly ok: false; readonly reason: SignedUrlFailure };

/**
 * Checks the `signature` parameter of a URL of the identity-connect flow. It verifies when it is
 * the HMAC-SHA256, keyed with one of the secrets (several during a rotation), of either the
 * canonical form of the URL or the received string with the signature taken out as text (for
 * signers that concatenate by hand). Web Crypto compares each in constant time, and every
 * candidate is checked.
 *
 * Bad input is data: any string, of any length, resolves to a result and never rejects. Only a
 * missing or empty secret throws a TypeError, at the call, since that is a configuration error.
 * Behind a proxy, pass the public URL the signer saw, not one rebuilt from the `Host` header.
 *
 * @example
 * const result = await verifySignedUrl(request.url, [process.env.CONNECT_SECRET!, process.env.OLD_SECRET!]);
 * if (!result.ok) return new Response(`Invalid link (${result.reason})`, { status: 400 });
 * const svcUserId = result.params.get('svcUserId');
 */
export function verifySignedUrl(
  url: string | URL,
  secret: string | readonly string[],
): Promise<VerifiedUrl> {
  return verifySignedUrlWith(url, connectKeys(secret));
}

/** {@link verifySignedUrl} with keys imported once. */
export async function verifySignedUrlWith(
  url: string | URL,
  keys: readonly HmacKey[],
): Promise<VerifiedUrl> {
  const parsed = parseUrl(url);
  if (parsed === null) return { ok: false, reason: 'invalid_url' };

  const signatures = parsed.searchParams.getAll(SIGNATURE_PARAM);
  if (signatures.length === 0) return { ok: false, reason: 'missing_signature' };
  if (signatures.length > 1) return { ok: false, reason: 'duplicate_signature' };
  const signature = signatures[0]!;
  if (!HEX_SIGNATURE.test(signature)) return { ok: false, reason: 'malformed_signature' };

  const raw = rawSignedString(typeof url === 'string' ? url : url.href);
  canonicalize(parsed);
  const canonical = parsed.href;
  const candidates = raw === canonical ? [canonical] : [canonical, raw];
  const verdicts = await Promise.all(
    keys.flatMap((key) => candidates.map((candidate) => verifyHmacHex(key, signature, candidate))),
  );
  if (findWithoutEarlyExit(verdicts, (verdict) => verdict) === undefined) {
    return { ok: false, reason: 'bad_signature' };
  }
  return { ok: true, url: parsed, params: parsed.searchParams };
}
