/**
 * The Worker's session: a cookie holding the member's id and an expiry, signed with
 * `SESSION_SECRET` (HMAC-SHA256 through `hono/cookie`, checked with `crypto.subtle.verify`, in
 * constant time). A visitor can set any cookie: only a value this Worker signed names a member.
 * Stateless, so any isolate can read it.
 */
import type { Context } from 'hono';
import { getSignedCookie, setSignedCookie } from 'hono/cookie';

/** The session cookie's name. */
export const SESSION_COOKIE = 'member';
/** How long a session lasts. */
export const SESSION_TTL_SECONDS = 8 * 60 * 60;

const VALUE = /^([\w-]{1,64})\|(\d{1,12})$/;

/**
 * The logged-in member's id, or undefined: no cookie, a signature that does not verify (forged,
 * altered, another secret), or an expired session.
 */
export async function sessionMember(
  c: Context,
  secret: string,
  now = Date.now(),
): Promise<string | undefined> {
  const value = await getSignedCookie(c, secret, SESSION_COOKIE);
  const match = typeof value === 'string' ? VALUE.exec(value) : null;
  if (!match || Number(match[2]) * 1000 <= now) return undefined;
  return match[1];
}

/** Opens a session for `memberId`: call it from your login, once the member proved who they are. */
export async function openSession(
  c: Context,
  memberId: string,
  secret: string,
  now = Date.now(),
): Promise<void> {
  if (!/^[\w-]{1,64}$/.test(memberId))
    throw new TypeError('a member id of 1 to 64 word characters');
  const expires = Math.floor(now / 1000) + SESSION_TTL_SECONDS;
  await setSignedCookie(c, SESSION_COOKIE, `${memberId}|${expires}`, secret, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: new URL(c.req.url).protocol === 'https:',
    maxAge: SESSION_TTL_SECONDS,
  });
}
