/**
 * Where to send a member after login: a path of this app, never another site. `value` is parsed
 * against the app's own origin as a browser would, and kept only when it stays on that origin.
 * Tabs, newlines and other control characters, backslashes and protocol-relative forms are refused
 * before parsing: URL parsers drop or rewrite them, which is how `/%09/evil.example` leads off-site.
 *
 * @example
 * safeReturnTo('/connect?state=abc', 'https://community.example'); // '/connect?state=abc'
 * safeReturnTo('//evil.example', 'https://community.example'); // '/'
 */
export function safeReturnTo(value: string | undefined, origin: string): string {
  if (!value || !value.startsWith('/') || value.startsWith('//')) return '/';
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return '/';
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return '/';
  }
  // The same characters, encoded: `%09`, `%0d%0a`, `%5c` and an encoded `//` after a slash.
  if (/[\u0000-\u001f\u007f\\]/.test(decoded) || decoded.startsWith('//')) return '/';
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return '/';
  }
  if (url.origin !== new URL(origin).origin) return '/';
  // Dot segments can fold into a protocol-relative path (`/..//evil.example` -> `//evil.example`),
  // which a browser follows to another host.
  if (url.pathname.startsWith('//')) return '/';
  return `${url.pathname}${url.search}`;
}
