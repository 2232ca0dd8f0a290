import { escapeHtml } from '@questkit/core';
import { Hono } from 'hono';
import * as z from 'zod';
import type { MockContext } from '../context.js';
import { apiError } from '../errors.js';
import { toResponse } from '../http/pipeline.js';
import { randomHex } from '../ids.js';
import { findMember, memberNotFound } from '../members.js';
import type { ConnectCallbackResult } from '../service/connect.js';
import type { MockService } from '../service/service.js';
import { readBody, readQuery } from './request.js';

const StartQuerySchema = z.object({
  subdomain: z.string().min(1),
  questId: z.string().min(1),
  userId: z.string().min(1),
  taskId: z.string().min(1).optional(),
  callbackParam: z.enum(['callback', 'callbackUrl']).optional(),
});

const SecretBodySchema = z.object({
  secret: z
    .string()
    .min(1)
    .max(1024)
    .refine((value) => value.trim() !== '', 'must not be blank')
    .optional()
    .describe('The new community secret; generated (32 random bytes, hex) when absent.'),
});

function page(title: string, text: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></main></body></html>`;
}

// A browser gets the page; a client asking for JSON only (a test, a script) gets JSON.
const wantsJson = (accept: string | undefined) =>
  /application\/json/i.test(accept ?? '') && !/text\/html/i.test(accept ?? '');

function callbackAnswer(result: ConnectCallbackResult, accept: string | undefined): Response {
  const status = result.ok ? 200 : 400;
  if (wantsJson(accept)) {
    const body = result.ok
      ? { connected: true, ...result.connection }
      : { connected: false, reason: result.reason, message: result.message };
    return Response.json(body, { status });
  }
  const html = result.ok
    ? page(
        'Account connected',
        'Your account is connected. You can close this page and claim the quest.',
      )
    : page('Account not connected', `${result.message} Start again from the quest page.`);
  return new Response(html, { status, headers: { 'content-type': 'text/html; charset=utf-8' } });
}

/**
 * The identity-connect flow of the service and the community secrets:
 * `GET /connect/start?subdomain=&questId=&userId=&taskId=&callbackParam=` redirects (302) to the
 * task's redirect URL, signed (`{location}` to a client asking for JSON only); `GET /connect/callback` verifies the community's answer and stores
 * the association (200 page, or 400 page with the reason); `GET` and `PUT
 * /communities/{subdomain}/secret` read and set the connect secret;
 * `GET /communities/{subdomain}/users/{userId}/connections` lists a member's associations.
 */
export function connectRoutes(context: MockContext, service: MockService): Hono {
  const routes = new Hono();
  const { store } = context;

  routes.get('/connect/start', (c) => {
    const query = readQuery(c.req.raw, StartQuerySchema);
    if (!query.ok) return query.response;
    const started = service.connect.start(query.data);
    if ('kind' in started) return toResponse(started);
    // A page holding the control token (the dashboard) cannot read a 302's target: it asks for
    // JSON and sends the member's browser there itself.
    if (wantsJson(c.req.header('accept'))) return c.json({ location: started.location });
    return c.redirect(started.location, 302);
  });

  routes.get('/connect/callback', (c) =>
    callbackAnswer(service.connect.callback(c.req.url), c.req.header('accept')),
  );

  // The communities, for the dashboard's chooser: a control route, so that an exposed mock
  // names its subdomains to token holders only.
  routes.get('/communities', (c) =>
    c.json(
      store.communities
        .list()
        .map((community) => ({ subdomain: community.subdomain, name: community.name })),
    ),
  );

  routes.get('/communities/:subdomain/secret', (c) => {
    const community = store.communities.getBySubdomain(c.req.param('subdomain'));
    if (!community)
      return toResponse(apiError(404, `Community "${c.req.param('subdomain')}" not found`));
    return c.json({ subdomain: community.subdomain, secret: community.connectSecret });
  });

  routes.put('/communities/:subdomain/secret', async (c) => {
    const community = store.communities.getBySubdomain(c.req.param('subdomain'));
    if (!community)
      return toResponse(apiError(404, `Community "${c.req.param('subdomain')}" not found`));
    const body = await readBody(c.req.raw, SecretBodySchema);
    if (!body.ok) return body.response;
    const secret = body.data.secret ?? randomHex(32);
    store.communities.put({ ...community, connectSecret: secret });
    return c.json({ subdomain: community.subdomain, secret });
  });

  routes.get('/communities/:subdomain/users/:userId/connections', (c) => {
    const community = store.communities.getBySubdomain(c.req.param('subdomain'));
    if (!community)
      return toResponse(apiError(404, `Community "${c.req.param('subdomain')}" not found`));
    const user = findMember(store, community, c.req.param('userId'));
    if (!user) return toResponse(memberNotFound(c.req.param('userId'), community));
    return c.json(store.connections.listByUser(user.id));
  });
  return routes;
}
