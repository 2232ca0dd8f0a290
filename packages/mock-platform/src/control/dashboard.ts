import { readAsset } from '../assets.js';
import { renderDashboardPage } from '../dashboard/page.js';
import { defineControlRoute } from './route.js';

// Only the mock's own script, style and requests; no framing (a page of another site cannot
// overlay the buttons to make a developer click them).
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * The dashboard, a page to look at and drive the mock (calls live, deliveries, members and
 * quests, connect, the test clock, endpoint checks), and its script and style: the files of
 * src/dashboard/, served as they are. It holds no data: its script reads the control routes like
 * any script does.
 */
export const DASHBOARD_ROUTES = [
  defineControlRoute({
    method: 'GET',
    path: '/__mock/dashboard',
    summary: 'The dashboard (an HTML page)',
    handle: async ({ c }, { context, tokenRequired }) =>
      c.html(
        renderDashboardPage(await readAsset('dashboard/page.html'), {
          // Exposed with a token, the page names nothing: the script lists the communities
          // through a control route once it has the token.
          subdomains: tokenRequired
            ? []
            : context.store.communities.list().map((community) => community.subdomain),
          tokenRequired,
        }),
        200,
        SECURITY_HEADERS,
      ),
  }),
  defineControlRoute({
    method: 'GET',
    path: '/__mock/dashboard/app.js',
    summary: 'The dashboard’s script',
    handle: async ({ c }) =>
      c.body(await readAsset('dashboard/app.js'), 200, {
        ...SECURITY_HEADERS,
        'content-type': 'text/javascript; charset=utf-8',
      }),
  }),
  defineControlRoute({
    method: 'GET',
    path: '/__mock/dashboard/app.css',
    summary: 'The dashboard’s style',
    handle: async ({ c }) =>
      c.body(await readAsset('dashboard/app.css'), 200, {
        ...SECURITY_HEADERS,
        'content-type': 'text/css; charset=utf-8',
      }),
  }),
];
