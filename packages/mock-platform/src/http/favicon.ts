// The icon of the docs page and the dashboard: a small SVG, served at /favicon.svg and at
// /favicon.ico (where browsers look when a page names none), so neither page logs a 404.

/** The mock's icon: a quest flag on a rounded square. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1f4e79"/><path d="M10 6v21" stroke="#fff" stroke-width="2.5" stroke-linecap="round"/><path d="M11 7h12l-3 4.5 3 4.5H11z" fill="#f2b134"/></svg>
`;

/** The paths the icon is served at. */
export const FAVICON_PATHS = ['/favicon.svg', '/favicon.ico'] as const;

/** The icon's answer: SVG (browsers take it at /favicon.ico too), cached for a day. */
export function faviconResponse(): Response {
  return new Response(FAVICON_SVG, {
    status: 200,
    headers: {
      'content-type': 'image/svg+xml',
      'cache-control': 'public, max-age=86400',
      'x-content-type-options': 'nosniff',
    },
  });
}
