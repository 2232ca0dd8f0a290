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

/** The cookie that proves a browser logged in to an account before (a known browser). */
export const DEVICE_COOKIE = 'known_browser';
/** How long a browser stays known after a login. */
export const KNOWN_BROWSER_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** Why an attempt is refused; null when it may be checked. */
export type ThrottleRefusal = 'address' | 'account' | null;

/**
 * Login attempts, counted in `state` (shared by every instance when it is on Redis) before the
 * password is checked, so concurrent guesses cannot slip past the count. Hard limits, `limit` in
 * a window of `windowMs`: per client address (one address cannot guess many accounts) and per
 * account and address. The account's own limit (many addresses sharing guesses at one account)
 * refuses only browsers that never logged in to it: a stranger's guesses cannot lock the owner
 * out of the browser she uses, and a known browser is a proof a guesser does not have (OWASP's
 * device cookies).
 */
export function createLoginThrottle(state: AppState, limit = 10, windowMs = 60_000) {
  // Hashed: the key's length does not depend on what the visitor typed.
  const accountOf = (username: string) =>
    createHash('sha256').update(username.trim().toLowerCase()).digest('hex');
  return {
    /** Records an attempt; says which limit refuses it, or null. */
    async check(
      address: string,
      username: string,
      knownBrowser: string | undefined,
    ): Promise<ThrottleRefusal> {
      if ((await state.hit(`throttle:address:${address}`, windowMs)) > limit) return 'address';
      const account = accountOf(username);
      if ((await state.hit(`throttle:pair:${account}:${address}`, windowMs)) > limit) {
        return 'address';
      }
      if ((await state.hit(`throttle:account:${account}`, windowMs)) <= limit) return null;
      const known = knownBrowser && (await state.get(`browser:${knownBrowser}`));
      return known === account ? null : 'account';
    },
    /** After a login: a new proof that this browser knows the account (the cookie's value). */
    async remember(username: string): Promise<string> {
      const id = randomBytes(32).toString('base64url');
      await state.set(`browser:${id}`, accountOf(username), KNOWN_BROWSER_TTL_MS);
      return id;
    },
  };
}
