import { Hono } from 'hono';
import * as z from 'zod';
import type { MockService } from '../service/service.js';
import { readBody, readQuery } from './request.js';

const CheckBodySchema = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).describe('The verification endpoint to check.'),
  apiKey: z.string().min(1).max(1024).optional().describe('Sent as X-Api-Key; never recorded.'),
});

const ChecksQuerySchema = z.object({
  endpoint: z.string().optional(),
  questId: z.string().optional(),
});

/**
 * Automatic endpoint checks: `POST /endpoint-checks` `{endpoint, apiKey?}` runs the platform's
 * three checks now and answers the record; `GET /endpoint-checks?endpoint=&questId=` lists the
 * records (manual ones and those started by quest creation); `DELETE /endpoint-checks` clears them.
 */
export function endpointCheckRoutes(service: MockService): Hono {
  const routes = new Hono();
  routes.post('/endpoint-checks', async (c) => {
    const body = await readBody(c.req.raw, CheckBodySchema);
    if (!body.ok) return body.response;
    return c.json(await service.endpointChecks.check(body.data));
  });
  routes.get('/endpoint-checks', (c) => {
    const query = readQuery(c.req.raw, ChecksQuerySchema);
    if (!query.ok) return query.response;
    return c.json(service.endpointChecks.list(query.data));
  });
  routes.delete('/endpoint-checks', (c) => {
    service.endpointChecks.clear();
    return c.body(null, 200);
  });
  return routes;
}
