import { Hono } from 'hono';
import type { MockContext } from '../context.js';
import { renderDashboardPage } from './page.js';
import { DASHBOARD_SCRIPT } from './script.js';
import { DASHBOARD_CSS } from './style.js';

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
 * `GET /dashboard`: a page to look at and drive the mock (calls live, deliveries, members and
 * quests, connect, the test clock, endpoint checks). It holds no data: its script reads the
 * control routes like any script does. Served without a build step.
 */
export function dashboardRoutes(context: MockContext, tokenRequired: boolean): Hono {
  const routes = new Hono();
  routes.get('/dashboard', (c) =>
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
  );
  routes.get('/dashboard/app.js', (c) =>
    c.body(DASHBOARD_SCRIPT, 200, {
      ...SECURITY_HEADERS,
      'content-type': 'text/javascript; charset=utf-8',
    }),
  );
  routes.get('/dashboard/app.css', (c) =>
    c.body(DASHBOARD_CSS, 200, { ...SECURITY_HEADERS, 'content-type': 'text/css; charset=utf-8' }),
  );
  return routes;
}
