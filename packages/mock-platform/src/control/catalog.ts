import { CONTROL_ROUTE_DEFINITIONS } from './index.js';
import { controlOpenApi } from './openapi.js';
import type { ControlRoute } from './route.js';

export { controlExample } from './openapi.js';
export type { ControlRoute } from './route.js';

/**
 * Every route under `/__mock/`: what tests, demos and the dashboard drive the mock with, made from
 * the routes the mock serves, so that `questkit mock`'s banner, `/__mock/openapi.json` and the
 * router cannot disagree.
 */
export const CONTROL_ROUTES: readonly ControlRoute[] = CONTROL_ROUTE_DEFINITIONS.map(
  ({ method, path, summary, example, query }) => ({
    method,
    path,
    summary,
    ...(example !== undefined ? { example } : {}),
    ...(query !== undefined ? { query } : {}),
  }),
);

/** The control routes as an OpenAPI 3.1 document, with an example request for each. */
export function buildControlOpenApi(baseUrl?: string): Record<string, unknown> {
  return controlOpenApi(CONTROL_ROUTE_DEFINITIONS, baseUrl);
}
