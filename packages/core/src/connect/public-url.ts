/**
 * The URL the signer saw: the public origin joined, as text, with the path and query the app
 * received. Joined, not resolved: a path such as `//evil.example/x` must stay a path of this
 * origin (and then fail verification), never become another host.
 */
export function publicRequestUrl(pathAndQuery: string, origin: string): string {
  return `${origin}${pathAndQuery.startsWith('/') ? '' : '/'}${pathAndQuery}`;
}

/** The `publicUrl` option as an origin; anything but an http(s) origin throws at start-up. */
export function readPublicOrigin(publicUrl: string | undefined): string | undefined {
  if (publicUrl === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(publicUrl);
  } catch {
    url = undefined;
  }
  if (
    !url ||
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    url.pathname !== '/' ||
    url.search
  ) {
    throw new TypeError(
      '[@questkit/core] connect: publicUrl must be an origin such as https://community.example',
    );
  }
  return url.origin;
}
