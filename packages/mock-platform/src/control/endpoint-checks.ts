import { IDENTIFICATION_METHODS } from '@questkit/core';
import { Hono } from 'hono';
import * as z from 'zod';
import type { MockService } from '../service/service.js';
import { readBody, readQuery } from './request.js';

const CheckBodySchema = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).describe('The verification endpoint to check.'),
  apiKey: z
    .string()
    .min(1)
    .max(1024)
    .optional()
    .describe("The task's key, sent as X-Api-Key and never recorded; absent: the task has none."),
  identifications: z
    .array(z.enum(IDENTIFICATION_METHODS))
    .max(IDENTIFICATION_METHODS.length)
    .refine((methods) => new Set(methods).size === methods.length, 'a method is named twice')
    .optional()
    .describe("The task's identification methods; absent: every claim shape the contract allows."),
});

const ChecksQuerySchema = z.object({
  endpoint: z.string().optional(),
  questId: z.string().optional(),
});

/**
 * Automatic endpoint checks: `POST /endpoint-checks` `{endpoint, apiKey?, identifications?}` runs
 * the platform's three checks now, with the judge of `questkit check`, and answers the record; `GET /endpoint-checks?endpoint=&questId=` lists the
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
