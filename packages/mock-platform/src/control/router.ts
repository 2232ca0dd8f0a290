import { Hono } from 'hono';
import { readBody, readQuery } from './request.js';
import type { ControlDeps, ControlRouteDefinition } from './route.js';

/** `/__mock/communities/{subdomain}` -> `/__mock/communities/:subdomain`. */
const honoPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * The control routes as a Hono app: each validates its query and body with its schemas (a 400
 * `{message, issues}` in the public API's shape) before its handler runs.
 */
export function controlApp(routes: readonly ControlRouteDefinition[], deps: ControlDeps): Hono {
  const app = new Hono();
  for (const route of routes) {
    app.on(route.method, honoPath(route.path), async (c) => {
      const query = route.querySchema ? readQuery(c.req.raw, route.querySchema) : undefined;
      if (query && !query.ok) return query.response;
      const body = route.bodySchema ? await readBody(c.req.raw, route.bodySchema) : undefined;
      if (body && !body.ok) return body.response;
      return route.handle({ params: c.req.param(), query: query?.data, body: body?.data, c }, deps);
    });
  }
  return app;
}
