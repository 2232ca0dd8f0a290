import { Hono } from 'hono';
import * as z from 'zod';
import type { MockContext } from '../context.js';
import { apiError } from '../errors.js';
import { toResponse } from '../http/pipeline.js';
import { buildControlOpenApi } from './catalog.js';
import { readBody } from './request.js';

// Control routes drive the mock in tests and demos. They live under /__mock/, never under
// /public/, take no credential (the mock binds to loopback by default) and answer errors in the
// public API's {message} shape. The service side (claims, connect, deliveries, clock) adds its
// routes here.

const TokenRequestSchema = z.object({
  userId: z.uuid(),
  ttlSeconds: z
    .number()
    .int()
    .min(1)
    .max(365 * 24 * 3600)
    .optional(),
});

/**
 * The /__mock/ routes: `POST /tokens` issues a member token (`{userId, ttlSeconds?}` ->
 * `{token, userId, communityId, expiresAt}`); `GET /requests` lists the journal of public API
 * requests; `DELETE /requests` clears it.
 */
export function createControlApp(context: MockContext): Hono {
  const control = new Hono();
  control.post('/tokens', async (c) => {
    const parsed = await readBody(c.req.raw, TokenRequestSchema);
    if (!parsed.ok) return parsed.response;
    const user = context.store.users.get(parsed.data.userId);
    if (!user) return toResponse(apiError(404, `User ${parsed.data.userId} not found`));
    const ttl = parsed.data.ttlSeconds;
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
  });
  control.get('/openapi.json', (c) => c.json(buildControlOpenApi()));
  control.get('/requests', (c) => c.json(context.journal.list()));
  control.delete('/requests', (c) => {
    context.journal.clear();
    return c.body(null, 200);
  });
  return control;
}
