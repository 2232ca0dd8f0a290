import { RedirectError } from './errors.js';

/**
 * The client's redirect policy: fetch runs with `redirect: 'manual'` and the client follows a
 * redirect itself only when it stays on the origin of the call's first URL (baseUrl's). fetch's
 * own following would send `x-api-key` (and, on a 307/308, a createQuest body holding task API
 * keys) to whatever origin a platform, a proxy or a wrong baseUrl names.
 */

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** fetch's own limit. */
export const MAX_REDIRECTS = 20;

/**
 * Where to go next: null when `response` is not a redirect to follow (it is the answer); the
 * next URL when it is a same-origin redirect; a RedirectError otherwise. Parses URLs only when a
 * redirect came, so the common path pays nothing.
 */
export function nextHop(
  operationId: string,
  firstUrl: string,
  currentUrl: string,
  response: Response,
  hops: number,
): string | null {
  // Browsers hide a manual redirect's status and target behind an opaque answer.
  if (response.type === 'opaqueredirect') {
    throw new RedirectError(
      operationId,
      0,
      null,
      'the platform answered with a redirect this runtime hides; set baseUrl to the final address',
    );
  }
  const location = response.headers.get('location');
  if (!REDIRECT_STATUSES.has(response.status) || location === null) return null;
  let target: URL;
  try {
    target = new URL(location, currentUrl);
  } catch {
    throw new RedirectError(
      operationId,
      response.status,
      location,
      `redirected (${response.status}) to an invalid URL: ${location}`,
    );
  }
  const href = target.href;
  if (target.origin !== new URL(firstUrl).origin) {
    throw new RedirectError(
      operationId,
      response.status,
      href,
      `redirected (${response.status}) to another origin, not followed (the credentials stay with baseUrl's origin): ${href}`,
    );
  }
  if (hops >= MAX_REDIRECTS) {
    throw new RedirectError(
      operationId,
      response.status,
      href,
      `too many redirects (${MAX_REDIRECTS}), the last to ${href}`,
    );
  }
  return href;
}

/** The request of the next hop, as fetch would make it: 303, and 301/302 after a POST, become a GET without a body. */
export function redirectedInit(init: RequestInit, status: number): RequestInit {
  const method = init.method ?? 'GET';
  const toGet =
    (status === 303 && method !== 'GET' && method !== 'HEAD') ||
    ((status === 301 || status === 302) && method === 'POST');
  if (!toGet) return init;
  const headers = new Headers(init.headers);
  for (const name of ['content-type', 'content-encoding', 'content-language', 'content-location']) {
    headers.delete(name);
  }
  return { ...init, method: 'GET', headers, body: null };
}
