import { toResponse } from '../http/pipeline.js';
import {
  joinCommunity,
  joinResult,
  leaveCommunity,
  MemberJoinBodySchema,
} from '../service/members.js';
import { communityNotFound } from './request.js';
import { defineControlRoute } from './route.js';

/**
 * Adding a member with the member's fields: fires `JOINED_COMMUNITY`; answers `{user, deliveries}`
 * once each delivery has had its first try. A member leaving: fires `LEFT_COMMUNITY`; answers
 * `{userId, deletedAt, deliveries}` the same way.
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
  defineControlRoute({
    method: 'DELETE',
    path: '/__mock/communities/{subdomain}/members/{userId}',
    summary: 'A member leaves the community (fires LEFT_COMMUNITY)',
    handle: async ({ params, c }, { context, service }) => {
      const community = context.store.communities.getBySubdomain(params.subdomain);
      if (!community) return communityNotFound(params.subdomain);
      const left = leaveCommunity(context, service.deliveries, community, params.userId);
      if ('kind' in left) return toResponse(left);
      const deliveries = await left.settled;
      return c.json({ userId: left.user.id, deletedAt: left.user.deletedAt, deliveries });
    },
  }),
];
