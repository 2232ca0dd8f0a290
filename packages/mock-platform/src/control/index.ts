import { BROWSE_ROUTES } from './browse.js';
import { CLAIM_ROUTES } from './claims.js';
import { CLOCK_ROUTES } from './clock.js';
import { CONNECT_ROUTES } from './connect.js';
import { DASHBOARD_ROUTES } from './dashboard.js';
import { ENDPOINT_CHECK_ROUTES } from './endpoint-checks.js';
import { LEADERBOARD_ROUTES } from './leaderboard.js';
import { MEMBER_ROUTES } from './members.js';
import { controlOpenApi } from './openapi.js';
import { RECORDED_CLAIM_ROUTES } from './recorded-claims.js';
import { REQUEST_ROUTES } from './requests.js';
import { REVIEW_ROUTES } from './reviews.js';
import { type ControlRouteDefinition, defineControlRoute } from './route.js';
import { TOKEN_ROUTES } from './tokens.js';
import { WEBHOOK_ROUTES } from './webhooks.js';

// Control routes drive the mock in tests and demos. They live under /__mock/, never under
// /public/, take no credential (the mock binds to loopback by default; beyond it, the control
// token) and answer errors in the public API's {message} shape.

const OPENAPI_ROUTE = defineControlRoute({
  method: 'GET',
  path: '/__mock/openapi.json',
  summary: 'This list, as an OpenAPI document',
  handle: ({ c }) => c.json(controlOpenApi(CONTROL_ROUTE_DEFINITIONS)),
});

/**
 * Every route under `/__mock/`, each one definition: the router serves this list, and the
 * catalogue (`CONTROL_ROUTES`, the CLI's banner) and `/__mock/openapi.json` are made from it.
 */
export const CONTROL_ROUTE_DEFINITIONS: readonly ControlRouteDefinition[] = [
  ...CLAIM_ROUTES,
  ...RECORDED_CLAIM_ROUTES,
  ...ENDPOINT_CHECK_ROUTES,
  ...CONNECT_ROUTES,
  ...MEMBER_ROUTES,
  ...BROWSE_ROUTES,
  ...WEBHOOK_ROUTES,
  ...CLOCK_ROUTES,
  ...TOKEN_ROUTES,
  ...REQUEST_ROUTES,
  ...REVIEW_ROUTES,
  ...LEADERBOARD_ROUTES,
  ...DASHBOARD_ROUTES,
  OPENAPI_ROUTE,
];
