import { timingSafeEqual } from '@questkit/core';
import type { MiddlewareHandler } from 'hono';
import { DASHBOARD_PATHS } from '../dashboard-paths.js';

/** Options of {@link createGuard}. */
export interface GuardOptions {
  /**
   * Host names accepted besides loopback names and the bound address (`--allowed-hosts`); `true`
   * accepts any `Host`, which reopens DNS rebinding: only behind a proxy that checks it.
   */
  allowedHosts?: readonly string[] | true;
  /** When set, control routes need it in `x-questkit-control-token` (the CLI sets one off loopback). */
  controlToken?: string;
}

/** The guard in front of every route, and where the server tells it the bound address. */
export interface Guard {
  middleware: MiddlewareHandler;
  /** Accepts `host` as a `Host` name too (the address the server is bound to). */
  allowHost(host: string): void;
}

/** The header that carries the control token. */
export const CONTROL_TOKEN_HEADER = 'x-questkit-control-token';

// The browser-facing steps of the connect flow: top-level navigations, cross-site by nature.
const NAVIGATIONS = new Set(['/__mock/connect/start', '/__mock/connect/callback']);
// The callback is also open without the control token: the community's site redirects the
// member's browser there, and a navigation cannot carry a header. It is safe on its own: it acts
// only on a one-time nonce that a start issued (start needs the token), checked before anything
// else, and on the community's signature.
const CALLBACK_PATH = '/__mock/connect/callback';

const json = (message: string) =>
  new Response(JSON.stringify({ message }), {
    status: 403,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });

/** `example.com:4000` -> `example.com`; `[::1]:4000` -> `::1`. */
function hostName(host: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(host);
  if (bracketed) return bracketed[1]!.toLowerCase();
  return host.replace(/:\d+$/, '').toLowerCase();
}

function isLoopback(name: string): boolean {
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)
  );
}

/**
 * What keeps the mock safe next to a browser on a developer's machine:
 * - a `Host` that is not a loopback name, the bound address or an allowed host gets a 403 (a
 *   page whose name resolves to 127.0.0.1, DNS rebinding, cannot read or drive the mock);
 * - control and token routes (`/__mock/*`) refuse requests a browser marks cross-site, by
 *   `Origin` or `Sec-Fetch-Site` (a "simple" cross-site POST needs no preflight);
 * - with a control token, control routes need it, starting a connect flow included; only the
 *   dashboard's page and assets (no data) and the connect callback (a one-time nonce from a
 *   start, and the community's signature) stay open.
 * Requests with no `Host` (in-process `platform.fetch`) and scripts sending no `Origin` pass.
 */
export function createGuard(options: GuardOptions = {}): Guard {
  const allowed = new Set(
    options.allowedHosts === true
      ? []
      : (options.allowedHosts ?? []).map((host) => hostName(host.trim())),
  );
  const anyHost = options.allowedHosts === true;
  const token = options.controlToken;
  return {
    allowHost(host) {
      allowed.add(hostName(host));
    },
    middleware: async (c, next) => {
      const host = c.req.header('host');
      if (host !== undefined && !anyHost) {
        const name = hostName(host);
        if (!isLoopback(name) && !allowed.has(name)) {
          return json(
            `Host "${name}" is not allowed: the mock answers loopback names and the address it is bound to. To allow it, start the mock with --allowed-hosts ${name} (QUESTKIT_MOCK_ALLOWED_HOSTS).`,
          );
        }
      }
      const path = c.req.path;
      if (path.startsWith('/__mock/')) {
        const get = c.req.method === 'GET';
        const site = c.req.header('sec-fetch-site');
        const origin = c.req.header('origin');
        const own = host === undefined ? undefined : new URL(c.req.url).origin;
        if (
          !(get && NAVIGATIONS.has(path)) &&
          ((site !== undefined && site !== 'same-origin' && site !== 'none') ||
            (origin !== undefined && origin !== own))
        ) {
          return json(
            'Control routes refuse cross-site browser requests: call them from a script, the CLI, or the mock’s own pages.',
          );
        }
        // The dashboard's page and assets hold no data (a browser cannot send the header on a
        // navigation); everything they show comes from routes that need the token. Starting a
        // connect flow needs the token: it names any member, and its redirect says whether the
        // member, the quest and the community exist.
        const open = get && (DASHBOARD_PATHS.has(path) || path === CALLBACK_PATH);
        if (
          token !== undefined &&
          !open &&
          !timingSafeEqual(c.req.header(CONTROL_TOKEN_HEADER) ?? '', token)
        ) {
          return json(
            `Control routes need the control token printed at start, in the ${CONTROL_TOKEN_HEADER} header: the mock is bound beyond loopback.`,
          );
        }
      }
      await next();
    },
  };
}
