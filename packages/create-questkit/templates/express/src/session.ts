// The app's session: the member's id and an expiry in a cookie signed with SESSION_SECRET
// (HMAC-SHA256 through Web Crypto; crypto.subtle.verify compares in constant time). A visitor can
// write any cookie: only a value this app signed names a member. Use your auth library's session
// the same way once you have one.

/** The session cookie's name. */
export const SESSION_COOKIE = 'session';
/** How long a session lasts. */
export const SESSION_TTL_SECONDS = 8 * 60 * 60;

const MEMBER = /^[\w-]{1,64}$/;
const encoder = new TextEncoder();

const keyOf = (secret: string) =>
  crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);

const toBase64Url = (bytes: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

const fromBase64Url = (text: string) =>
  /^[\w-]{43}$/.test(text)
    ? Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))
    : undefined;

/** A new session's cookie value for `memberId`: `<member>.<expires>.<signature>`. */
export async function sealSession(memberId: string, secret: string, now = Date.now()) {
  if (!MEMBER.test(memberId)) throw new TypeError('a member id of 1 to 64 letters, digits, - or _');
  const payload = `${memberId}.${Math.floor(now / 1000) + SESSION_TTL_SECONDS}`;
  const mac = await crypto.subtle.sign('HMAC', await keyOf(secret), encoder.encode(payload));
  return `${payload}.${toBase64Url(mac)}`;
}

/** The `Set-Cookie` header of a new session: send it from your login, once the member proved who they are. */
export async function sessionCookie(memberId: string, secret: string, secure: boolean) {
  const value = await sealSession(memberId, secret);
  return `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${SESSION_TTL_SECONDS}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/**
 * The member of a request's session, from its `Cookie` header; undefined for no cookie, a value
 * this app did not sign (forged, altered, another secret) or an expired session.
 */
export async function sessionMember(
  cookieHeader: string | null | undefined,
  secret: string,
  now = Date.now(),
): Promise<string | undefined> {
  const value = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([^;]*)`).exec(cookieHeader ?? '')?.[1];
  const [memberId, expires, signature, extra] = (value ?? '').split('.');
  if (!memberId || !expires || !signature || extra !== undefined) return undefined;
  if (!MEMBER.test(memberId) || !/^\d{1,12}$/.test(expires)) return undefined;
  const mac = fromBase64Url(signature);
  if (!mac) return undefined;
  const key = await keyOf(secret);
  const valid = await crypto.subtle.verify(
    'HMAC',
    key,
    mac,
    encoder.encode(`${memberId}.${expires}`),
  );
  return valid && Number(expires) * 1000 > now ? memberId : undefined;
}
