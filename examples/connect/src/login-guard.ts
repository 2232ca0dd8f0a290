import { randomBytes, timingSafeEqual } from 'node:crypto';

/** The cookie that carries the login form's CSRF token (double submit). */
export const CSRF_COOKIE = 'login_csrf';

/** A fresh CSRF token for the login form. */
export function newCsrfToken(): string {
  return randomBytes(32).toString('base64url');
}

/** True when the form's token equals the cookie's, compared in constant time. */
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
 * Login attempts per client address in a sliding minute: at most `limit`, then refused until the
 * window moves on. In memory, so per instance: behind several instances, use a shared store.
 */
export function createLoginThrottle(limit = 10, windowMs = 60_000, now: () => number = Date.now) {
  const attempts = new Map<string, number[]>();
  return {
    /** Records an attempt; false when the address is over its limit. */
    allow(address: string): boolean {
      const since = now() - windowMs;
      const recent = (attempts.get(address) ?? []).filter((at) => at > since);
      if (recent.length >= limit) {
        attempts.set(address, recent);
        return false;
      }
      recent.push(now());
      attempts.set(address, recent);
      // Bounded memory: forget the oldest addresses past a size any small app would reach.
      if (attempts.size > 10_000) attempts.delete(attempts.keys().next().value!);
      return true;
    },
  };
}
