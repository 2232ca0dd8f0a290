import { createHmac, timingSafeEqual } from 'node:crypto';

// The app's session: a cookie holding the member's id and an expiry, signed with SESSION_SECRET
// (HMAC-SHA256, compared in constant time). A visitor can set any cookie: only a value this app
// signed names a member. A real app would use its auth library's session the same way.

/** The session cookie's name. */
export const SESSION_COOKIE = 'session';
/** How long a session lasts. */
export const SESSION_TTL_SECONDS = 8 * 60 * 60;

const MEMBER = /^[\w-]{1,64}$/;

const mac = (payload: string, secret: string) =>
  createHmac('sha256', secret).update(payload).digest('base64url');

/** The cookie value of a new session for `memberId`: `<member>.<expires>.<mac>`. */
export function sealSession(memberId: string, secret: string, now = Date.now()): string {
  if (!MEMBER.test(memberId)) throw new TypeError('a member id of 1 to 64 word characters');
  const payload = `${memberId}.${Math.floor(now / 1000) + SESSION_TTL_SECONDS}`;
  return `${payload}.${mac(payload, secret)}`;
}

/** The `Set-Cookie` header of a new session: send it from your login, once the member proved who they are. */
export function sessionCookie(memberId: string, secret: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${sealSession(memberId, secret)}; Path=/; Max-Age=${SESSION_TTL_SECONDS}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/**
 * The member of the request's session, or undefined: no cookie, a value this app did not sign
 * (forged, altered, another secret), or an expired session.
 */
export function sessionMember(request: Request, secret: string, now = Date.now()) {
  const value = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([^;]*)`).exec(
    request.headers.get('cookie') ?? '',
  )?.[1];
  const [memberId, expires, signature, extra] = (value ?? '').split('.');
  if (!memberId || !expires || !signature || extra !== undefined) return undefined;
  if (!MEMBER.test(memberId) || !/^\d{1,12}$/.test(expires)) return undefined;
  const expected = Buffer.from(mac(`${memberId}.${expires}`, secret));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return Number(expires) * 1000 > now ? memberId : undefined;
}
