import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppState } from './state.js';

/** The cookie that carries the login form's CSRF token (double submit). */
export const CSRF_COOKIE = 'login_csrf';

/** A fresh CSRF token for the login form. */
export function newCsrfToken(): string {
  return randomBytes(32).toString('base64url');
}

/** True when the form's token equals the expected one (cookie or session), in constant time. */
export function csrfMatches(fromForm: string, fromCookie: string | undefined): boolean {
  if (!fromCookie || fromForm.length !== fromCookie.length) return false;
  return timingSafeEqual(Buffer.from(fromForm), Buffer.from(fromCookie));
}

/**
 * A request from another site: its `Origin` (or, without one, `Sec-Fetch-Site`) says so. A
 * request with neither comes from an old browser or a script, and the CSRF token decides.
 */
export function crossSite(
  origin: string | undefined,
  fetchSite: string | undefined,
  appOrigin: string,
): boolean {
  if (origin !== undefined) return origin !== appOrigin;
  return fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none';
}

/**
 * Login attempts per client address and per account, each at most `limit` in a window of
 * `windowMs`: one address cannot guess many accounts, and many addresses cannot share the
 * guesses at one account. Counted in `state` (shared by every instance when it is on Redis),
 * before the password is checked, so concurrent guesses cannot slip past the count.
 */
export function createLoginThrottle(state: AppState, limit = 10, windowMs = 60_000) {
  return {
    /** Records an attempt; false when the address or the account is over its limit. */
    async allow(address: string, username: string): Promise<boolean> {
      if ((await state.hit(`throttle:address:${address}`, windowMs)) > limit) return false;
      // Hashed: the key's length does not depend on what the visitor typed.
      const account = createHash('sha256').update(username.trim().toLowerCase()).digest('hex');
      return (await state.hit(`throttle:account:${account}`, windowMs)) <= limit;
    },
  };
}
