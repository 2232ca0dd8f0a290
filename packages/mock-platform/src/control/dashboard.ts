import { renderDashboardPage } from '../dashboard/page.js';
import { DASHBOARD_SCRIPT } from '../dashboard/script.js';
import { DASHBOARD_CSS } from '../dashboard/style.js';
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
 * quests, connect, the test clock, endpoint checks), and its script and style. It holds no data:
 * its script reads the control routes like any script does. Served without a build step.
 */
export const DASHBOARD_ROUTES = [
  defineControlRoute({
    method: 'GET',
    path: '/__mock/dashboard',
    summary: 'The dashboard (an HTML page)',
    handle: ({ c }, { context, tokenRequired }) =>
      c.html(
        renderDashboardPage({
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
    handle: ({ c }) =>
      c.body(DASHBOARD_SCRIPT, 200, {
        ...SECURITY_HEADERS,
        'content-type': 'text/javascript; charset=utf-8',
      }),
  }),
  defineControlRoute({
    method: 'GET',
    path: '/__mock/dashboard/app.css',
    summary: 'The dashboard’s style',
    handle: ({ c }) =>
      c.body(DASHBOARD_CSS, 200, {
        ...SECURITY_HEADERS,
        'content-type': 'text/css; charset=utf-8',
      }),
  }),
];
