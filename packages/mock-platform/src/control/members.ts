import { toResponse } from '../http/pipeline.js';
import { joinCommunity, joinResult, MemberJoinBodySchema } from '../service/members.js';
import { communityNotFound } from './request.js';
import { defineControlRoute } from './route.js';

/**
 * Adding a member with the member's fields: fires `JOINED_COMMUNITY`; answers `{user, deliveries}`
 * once each delivery has had its first try.
 */
export const MEMBER_ROUTES = [
  defineControlRoute({
    method: 'POST',
    path: '/__mock/communities/{subdomain}/members',
    summary: 'Add a member (fires JOINED_COMMUNITY)',
    example: { name: 'zoe', discordHandle: 'zoe#0001', xp: 120 },
    bodySchema: MemberJoinBodySchema,
    handle: async ({ params, body, c }, { context, service }) => {
      const community = context.store.communities.getBySubdomain(params.subdomain);
      if (!community) return communityNotFound(params.subdomain);
      const joined = joinCommunity(context, service.deliveries, community, body);
      if ('kind' in joined) return toResponse(joined);
      return c.json(await joinResult(context, joined));
    },
  }),
];
