import * as z from 'zod';
import { apiError } from '../errors.js';
import { toResponse } from '../http/pipeline.js';
import { defineControlRoute } from './route.js';

const TokenRequestSchema = z.object({
  userId: z.uuid(),
  ttlSeconds: z
    .number()
    .int()
    .min(1)
    .max(365 * 24 * 3600)
    .optional(),
});

/** Member tokens: `{userId, ttlSeconds?}` -> `{token, userId, communityId, expiresAt}`. */
export const TOKEN_ROUTES = [
  defineControlRoute({
    method: 'POST',
    path: '/__mock/tokens',
    summary: 'Issue a member token (authorization: Bearer)',
    example: { userId: '10000000-0000-4000-8000-000000000001' },
    bodySchema: TokenRequestSchema,
    handle: async ({ body, c }, { context }) => {
      const user = context.store.users.get(body.userId);
      if (!user) return toResponse(apiError(404, `User ${body.userId} not found`));
      const ttl = body.ttlSeconds;
      const token = await context.tokens.issue(
        { userId: user.id, communityId: user.communityId },
        ttl,
      );
      // The token's exp, in whole seconds as JWTs count.
      const issuedAt = Math.floor(context.clock.now().getTime() / 1000);
      const expiresAt = new Date((issuedAt + (ttl ?? context.settings.tokenTtlSeconds)) * 1000);
      return c.json({
        token,
        userId: user.id,
        communityId: user.communityId,
        expiresAt: expiresAt.toISOString(),
      });
    },
  }),
];
