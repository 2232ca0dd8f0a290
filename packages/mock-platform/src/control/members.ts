import { Hono } from 'hono';
import type { MockContext } from '../context.js';
import { apiError } from '../errors.js';
import { toResponse } from '../http/pipeline.js';
import { joinCommunity, joinResult, MemberJoinBodySchema } from '../service/members.js';
import type { MockService } from '../service/service.js';
import { readBody } from './request.js';

/**
 * `POST /communities/{subdomain}/members` with the member's fields: adds the member and fires
 * `JOINED_COMMUNITY`; answers `{user, deliveries}` once each delivery has had its first try.
 */
export function memberRoutes(context: MockContext, service: MockService): Hono {
  const routes = new Hono();
  routes.post('/communities/:subdomain/members', async (c) => {
    const community = context.store.communities.getBySubdomain(c.req.param('subdomain'));
    if (!community)
      return toResponse(apiError(404, `Community "${c.req.param('subdomain')}" not found`));
    const body = await readBody(c.req.raw, MemberJoinBodySchema);
    if (!body.ok) return body.response;
    const joined = joinCommunity(context, service.deliveries, community, body.data);
    if ('kind' in joined) return toResponse(joined);
    return c.json(await joinResult(context, joined));
  });
  return routes;
}
