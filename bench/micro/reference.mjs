/**
 * node:crypto reference implementations of the algorithms core implements in portable code, step
 * for step the same (WHATWG URL parsing, canonical form, raw form, constant-time compare), so a
 * ratio isolates what core pays for running without node:crypto. The worker checks that each one
 * gives the very same answers as core before timing it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { API_KEY, MESSAGE } from '../lib/claim.mjs';
import { invalidField } from '../lib/hand-written.mjs';

const SIGNATURE = 'signature';
const HEX_SIGNATURE = /^[0-9a-fA-F]{64}$/;
const HTTP_PREFIX = /^https?:\/\//i;
const AMBIGUOUS_CHARACTERS = /[\u0000-\u001f\u007f\\]/;

function hmacHex(secret, message) {
  return createHmac('sha256', secret).update(message).digest('hex');
}

function canonicalize(url) {
  url.hash = '';
  const params = new URLSearchParams(url.search);
  params.delete(SIGNATURE);
  url.search = params.toString();
}

function rawSignedString(received) {
  const hash = received.indexOf('#');
  const withoutFragment = hash === -1 ? received : received.slice(0, hash);
  const question = withoutFragment.indexOf('?');
  if (question === -1) return withoutFragment;
  const kept = withoutFragment
    .slice(question + 1)
    .split('&')
    .filter((part) => {
      const equals = part.indexOf('=');
      return (equals === -1 ? part : part.slice(0, equals)) !== SIGNATURE;
    });
  const base = withoutFragment.slice(0, question);
  return kept.length === 0 ? base : `${base}?${kept.join('&')}`;
}

/** Signs a URL: canonical form plus `signature=<hex HMAC-SHA256>`. */
export function nodeSignUrl(input, secret) {
  const url = new URL(input);
  canonicalize(url);
  const canonical = url.href;
  return `${canonical}${url.search === '' ? '?' : '&'}${SIGNATURE}=${hmacHex(secret, canonical)}`;
}

/** Verifies a signed URL over its canonical and its raw form, like core's verifySignedUrl. */
export function nodeVerifySignedUrl(input, secret) {
  let url;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, reason: 'invalid_url' };
  }
  const signatures = url.searchParams.getAll(SIGNATURE);
  if (signatures.length === 0) return { ok: false, reason: 'missing_signature' };
  if (signatures.length > 1) return { ok: false, reason: 'duplicate_signature' };
  if (!HEX_SIGNATURE.test(signatures[0])) return { ok: false, reason: 'malformed_signature' };
  const received = Buffer.from(signatures[0], 'hex');
  const raw = rawSignedString(input);
  canonicalize(url);
  const canonical = url.href;
  const candidates = raw === canonical ? [canonical] : [canonical, raw];
  let matched = 0;
  for (const candidate of candidates) {
    const mac = createHmac('sha256', secret).update(candidate).digest();
    matched |= timingSafeEqual(mac, received) ? 1 : 0;
  }
  if (matched !== 1) return { ok: false, reason: 'bad_signature' };
  return { ok: true, url, params: url.searchParams };
}

/** Sets `identifier` on the callback and signs it, with core's callback URL checks. */
export function nodeBuildConnectCallback(callback, identifier, secret) {
  if (!HTTP_PREFIX.test(callback) || AMBIGUOUS_CHARACTERS.test(callback)) {
    throw new TypeError('callback must be an absolute http(s) URL');
  }
  const url = new URL(callback);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('bad protocol');
  const authority = callback.replace(HTTP_PREFIX, '').split(/[/?#]/, 1)[0] ?? '';
  if (url.username !== '' || url.password !== '' || authority.includes('@')) {
    throw new TypeError('credentials in callback');
  }
  url.searchParams.set('identifier', identifier);
  return nodeSignUrl(url.href, secret);
}

const expectedKeyBytes = Buffer.from(API_KEY);

/** Constant-time key check with node:crypto against one key or every key of a list. */
export function nodeCheckApiKey(received, expected) {
  const bytes = Buffer.from(received ?? '');
  const keys = typeof expected === 'string' ? [expected] : expected;
  let matched = 0;
  for (const key of keys) {
    const keyBytes = Buffer.from(key);
    // Unequal lengths still cost a compare, so the time says nothing about which key matched.
    const same = bytes.length === keyBytes.length;
    matched |= timingSafeEqual(same ? bytes : keyBytes, keyBytes) && same ? 1 : 0;
  }
  return received != null && matched === 1;
}

/**
 * The hand-written endpoint's work on plain data, as an async function like `decide()`: key
 * compare, JSON.parse, five fields, the answer object.
 */
export async function handWrittenDecide(headers, body) {
  const received = headers['x-api-key'];
  const bytes = typeof received === 'string' ? Buffer.from(received) : undefined;
  if (
    !bytes ||
    bytes.length !== expectedKeyBytes.length ||
    !timingSafeEqual(bytes, expectedKeyBytes)
  ) {
    return { status: 400, body: { message: 'Invalid API key.' } };
  }
  let value;
  try {
    value = JSON.parse(body);
  } catch {
    return { status: 400, body: { message: 'The request body is not valid JSON.' } };
  }
  const field = invalidField(value);
  if (field !== null)
    return { status: 400, body: { message: `Invalid request: ${field} must be a string.` } };
  return { status: 200, body: { message: MESSAGE } };
}

const base64url = (input) => Buffer.from(input).toString('base64url');

/** HS256 JWT sign and verify with node:crypto, the reference of the connect state token. */
export function nodeStateToken(key) {
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  return {
    seal(state, ttlSeconds = 600) {
      const now = Math.floor(Date.now() / 1000);
      const payload = base64url(
        JSON.stringify({ ...state, iss: 'ref', aud: 'ref', iat: now, exp: now + ttlSeconds }),
      );
      const input = `${header}.${payload}`;
      return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
    },
    open(token) {
      const parts = token.split('.');
      if (parts.length !== 3) return { ok: false, reason: 'invalid' };
      const mac = createHmac('sha256', key).update(`${parts[0]}.${parts[1]}`).digest();
      const received = Buffer.from(parts[2], 'base64url');
      if (received.length !== mac.length || !timingSafeEqual(received, mac)) {
        return { ok: false, reason: 'invalid' };
      }
      const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
      if (claims.exp <= Math.floor(Date.now() / 1000)) return { ok: false, reason: 'expired' };
      return { ok: true, svcUserId: claims.svcUserId, callback: claims.callback };
    },
  };
}
