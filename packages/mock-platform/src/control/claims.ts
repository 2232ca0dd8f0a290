import { Hono } from 'hono';
import * as z from 'zod';
import { toResponse } from '../http/pipeline.js';
import type { MockService } from '../service/service.js';
import { CALL_OUTCOMES } from '../service/verification-call.js';
import { readBody, readQuery } from './request.js';

const ClaimBodySchema = z.object({
  userId: z.string().min(1).max(100).describe('The member claiming the quest.'),
});

const CallsQuerySchema = z.object({
  questId: z.string().optional(),
  userId: z.string().optional(),
  subdomain: z.string().optional(),
  outcome: z.enum(CALL_OUTCOMES).optional(),
});

/**
 * Claims and their verification calls: `POST /communities/{subdomain}/quests/{questId}/claims`
 * `{userId}` claims a quest as a member (200 with the claim answer whatever its status; 404 for
 * an unknown community, quest or member; 409 for a quest without API task);
 * `GET /calls?questId=&userId=&outcome=&subdomain=` lists the verification calls;
 * `DELETE /calls` clears them.
 */
export function claimRoutes(service: MockService): Hono {
  const routes = new Hono();
  routes.post('/communities/:subdomain/quests/:questId/claims', async (c) => {
    const body = await readBody(c.req.raw, ClaimBodySchema);
    if (!body.ok) return body.response;
    const result = await service.claims.claim({
      subdomain: c.req.param('subdomain'),
      questId: c.req.param('questId'),
      userId: body.data.userId,
    });
    return 'kind' in result ? toResponse(result) : c.json(result);
  });
  routes.get('/calls', (c) => {
    const query = readQuery(c.req.raw, CallsQuerySchema);
    if (!query.ok) return query.response;
    return c.json(service.calls.list(query.data));
  });
  routes.delete('/calls', (c) => {
    service.calls.clear();
    return c.body(null, 200);
  });
  return routes;
}
