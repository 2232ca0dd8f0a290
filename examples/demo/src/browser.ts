// A small browser for the connect flow: a cookie jar and redirects followed one hop at a time, as
// a real browser would, so each hop can be shown and checked. Cookies are kept per host name
// without the port, like browsers do (every local server is 127.0.0.1).

/** A cookie as the jar keeps it. */
interface StoredCookie {
  name: string;
  value: string;
  path: string;
  /** `Date.now()` after which the cookie is gone; undefined for a session cookie. */
  expiresAt: number | undefined;
}

/** One request the browser made and what came back. */
export interface Hop {
  method: 'GET' | 'POST';
  url: string;
  status: number;
  /** The absolute `location` of a redirect. */
  location: string | undefined;
  /** Names of the cookies the answer set. */
  cookiesSet: string[];
}

/** Where a navigation ended. */
export interface Page {
  url: string;
  status: number;
  contentType: string;
  body: string;
  /** Every request of the navigation, redirects included, in order. */
  hops: Hop[];
}

/** Options of {@link createBrowser}. */
export interface BrowserOptions {
  /** Redirects followed per navigation before giving up (default 10, as a bound). */
  maxRedirects?: number;
  /** Time limit of each request in ms (default 10 000). */
  timeoutMs?: number;
}

/** A browser: `open` a URL, `submit` a form; both follow redirects and keep cookies. */
export interface Browser {
  open(url: string): Promise<Page>;
  /** Posts a form (`application/x-www-form-urlencoded`) and follows the redirects. */
  submit(url: string, fields: Record<string, string>): Promise<Page>;
  /** The cookies the jar would send to this URL, as a `cookie` header value. */
  cookieHeader(url: string): string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function parseSetCookie(header: string, now: number): StoredCookie | null {
  const [pair, ...attributes] = header.split(';');
  const equals = pair?.indexOf('=') ?? -1;
  if (!pair || equals <= 0) return null;
  const cookie: StoredCookie = {
    name: pair.slice(0, equals).trim(),
    value: pair.slice(equals + 1).trim(),
    path: '/',
    expiresAt: undefined,
  };
  for (const attribute of attributes) {
    const [key = '', value = ''] = attribute.split('=', 2).map((part) => part.trim());
    const name = key.toLowerCase();
    if (name === 'path' && value.startsWith('/')) cookie.path = value;
    if (name === 'max-age' && /^-?\d+$/.test(value)) cookie.expiresAt = now + Number(value) * 1000;
    if (name === 'expires' && cookie.expiresAt === undefined) {
      const at = Date.parse(value);
      if (!Number.isNaN(at)) cookie.expiresAt = at;
    }
  }
  return cookie;
}

/**
 * A browser with a cookie jar, for the demo's connect flow and the end-to-end tests.
 *
 * @example
 * const browser = createBrowser();
 * const page = await browser.open('http://127.0.0.1:4000/__mock/connect/start?...');
 * for (const hop of page.hops) console.log(hop.status, hop.url);
 */
export function createBrowser(options: BrowserOptions = {}): Browser {
  const maxRedirects = options.maxRedirects ?? 10;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const jar = new Map<string, Map<string, StoredCookie>>();

  const cookieHeader = (url: string) => {
    const { hostname, pathname } = new URL(url);
    const now = Date.now();
    const cookies = jar.get(hostname);
    if (!cookies) return '';
    const sent: string[] = [];
    for (const cookie of cookies.values()) {
      if (cookie.expiresAt !== undefined && cookie.expiresAt <= now) {
        cookies.delete(cookie.name);
        continue;
      }
      const inPath =
        pathname === cookie.path ||
        pathname.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`);
      if (inPath) sent.push(`${cookie.name}=${cookie.value}`);
    }
    return sent.join('; ');
  };

  const store = (url: string, response: Response): string[] => {
    const { hostname } = new URL(url);
    const names: string[] = [];
    for (const header of response.headers.getSetCookie()) {
      const cookie = parseSetCookie(header, Date.now());
      if (!cookie) continue;
      const cookies = jar.get(hostname) ?? new Map<string, StoredCookie>();
      jar.set(hostname, cookies);
      if (cookie.expiresAt !== undefined && cookie.expiresAt <= Date.now()) {
        cookies.delete(cookie.name);
      } else {
        cookies.set(cookie.name, cookie);
      }
      names.push(cookie.name);
    }
    return names;
  };

  const navigate = async (first: {
    method: 'GET' | 'POST';
    url: string;
    body?: URLSearchParams;
  }): Promise<Page> => {
    const hops: Hop[] = [];
    let request = first;
    for (let redirects = 0; ; redirects += 1) {
      const headers: Record<string, string> = { accept: 'text/html,application/xhtml+xml' };
      // A browser names the page a form came from; here every form posts to its own origin.
      if (request.method === 'POST') headers.origin = new URL(request.url).origin;
      const cookie = cookieHeader(request.url);
      if (cookie) headers.cookie = cookie;
      const response = await fetch(request.url, {
        method: request.method,
        headers,
        body: request.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      const cookiesSet = store(request.url, response);
      const target = response.headers.get('location');
      const location = target === null ? undefined : new URL(target, request.url).href;
      hops.push({
        method: request.method,
        url: request.url,
        status: response.status,
        location,
        cookiesSet,
      });
      if (!REDIRECTS.has(response.status) || location === undefined) {
        return {
          url: request.url,
          status: response.status,
          contentType: response.headers.get('content-type') ?? '',
          body: await response.text(),
          hops,
        };
      }
      await response.body?.cancel();
      if (redirects >= maxRedirects) {
        throw new Error(`more than ${maxRedirects} redirects from ${first.url}`);
      }
      // 307 and 308 repeat the request; the others become a GET, as browsers do.
      const keep = response.status === 307 || response.status === 308;
      request = keep ? { ...request, url: location } : { method: 'GET', url: location };
    }
  };

  return {
    open: (url) => navigate({ method: 'GET', url }),
    submit: (url, fields) => navigate({ method: 'POST', url, body: new URLSearchParams(fields) }),
    cookieHeader,
  };
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

/** A form of an HTML page: where it posts and its prefilled fields (hidden inputs and values). */
export interface HtmlForm {
  action: string;
  fields: Record<string, string>;
}

/**
 * The first `method="post"` form of a page, read the simple way (enough for the example's login
 * page): its absolute action URL and the `name`/`value` of its inputs.
 */
export function readForm(page: Pick<Page, 'url' | 'body'>): HtmlForm | null {
  const form = /<form\b[^>]*method="post"[^>]*>([\s\S]*?)<\/form>/i.exec(page.body);
  if (!form) return null;
  const decode = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);
  const action = /action="([^"]*)"/i.exec(form[0])?.[1] ?? '';
  const fields: Record<string, string> = {};
  for (const input of form[1]!.matchAll(/<input\b[^>]*>/gi)) {
    const name = /name="([^"]*)"/i.exec(input[0])?.[1];
    if (name) fields[decode(name)] = decode(/value="([^"]*)"/i.exec(input[0])?.[1] ?? '');
  }
  return { action: new URL(decode(action), page.url).href, fields };
}
