import { escapeHtml } from '@questkit/core';
import * as z from 'zod';
import { readAsset } from '../assets.js';
import { toResponse } from '../http/pipeline.js';
import { randomHex } from '../ids.js';
import { findMember, memberNotFound } from '../members.js';
import type { ConnectCallbackResult } from '../service/connect.js';
import { communityNotFound } from './request.js';
import { defineControlRoute } from './route.js';

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

// The end of the connect flow, dressed as the dashboard the member came from.
async function page(title: string, text: string): Promise<string> {
  const css = await readAsset('dashboard/app.css');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${css}</style></head><body><header><p class="muted">questkit mock platform</p></header><main><section class="card"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p><p><a href="/__mock/dashboard">Back to the dashboard</a></p></section></main></body></html>`;
}

// A browser gets the page; a client asking for JSON only (a test, a script) gets JSON.
const wantsJson = (accept: string | undefined) =>
  /application\/json/i.test(accept ?? '') && !/text\/html/i.test(accept ?? '');

async function callbackAnswer(
  result: ConnectCallbackResult,
  accept: string | undefined,
): Promise<Response> {
  const status = result.ok ? 200 : 400;
  if (wantsJson(accept)) {
    const body = result.ok
      ? { connected: true, ...result.connection }
      : { connected: false, reason: result.reason, message: result.message };
    return Response.json(body, { status });
  }
  const html = await (result.ok
    ? page(
        'Account connected',
        'Your account is connected. You can close this page and claim the quest.',
      )
    : page('Account not connected', `${result.message} Start again from the quest page.`));
  return new Response(html, { status, headers: { 'content-type': 'text/html; charset=utf-8' } });
}

/**
 * The identity-connect flow of the service and the community secrets: starting the flow as a
 * member redirects (302) to the task's redirect URL, signed (`{location}` to a client asking for
 * JSON only); the callback verifies the community's answer and stores the association (200 page,
 * or 400 page with the reason); the communities; reading and setting the connect secret; a
 * member's associations.
 */
export const CONNECT_ROUTES = [
  defineControlRoute({
    method: 'GET',
    path: '/__mock/connect/start',
    summary:
      'Start the connect flow as a member: 302 to the task’s signed redirect ({location} for JSON)',
    query: 'subdomain=demo&questId=<questId>&userId=<userId>',
    querySchema: StartQuerySchema,
    handle: async ({ query, c }, { service }) => {
      const started = await service.connect.start(query);
      if ('kind' in started) return toResponse(started);
      // A page holding the control token (the dashboard) cannot read a 302's target: it asks for
      // JSON and sends the member's browser there itself.
      if (wantsJson(c.req.header('accept'))) return c.json({ location: started.location });
      return c.redirect(started.location, 302);
    },
  }),
  defineControlRoute({
    method: 'GET',
    path: '/__mock/connect/callback',
    summary: 'The connect callback: verifies the community’s answer (one-time, 10 minutes)',
    // The whole signed URL is the input: the flow verifies it, and answers a page a person reads.
    handle: async ({ c }, { service }) =>
      callbackAnswer(await service.connect.callback(c.req.url), c.req.header('accept')),
  }),
  defineControlRoute({
    method: 'GET',
    path: '/__mock/communities',
    summary: 'The communities, by subdomain',
    // For the dashboard's chooser: a control route, so that an exposed mock names its subdomains
    // to token holders only.
    handle: ({ c }, { context }) =>
      c.json(
        context.store.communities
          .list()
          .map((community) => ({ subdomain: community.subdomain, name: community.name })),
      ),
  }),
  defineControlRoute({
    method: 'GET',
    path: '/__mock/communities/{subdomain}/secret',
    summary: 'Read the connect secret',
    handle: ({ params, c }, { context }) => {
      const community = context.store.communities.getBySubdomain(params.subdomain);
      if (!community) return communityNotFound(params.subdomain);
      return c.json({ subdomain: community.subdomain, secret: community.connectSecret });
    },
  }),
  defineControlRoute({
    method: 'PUT',
    path: '/__mock/communities/{subdomain}/secret',
    summary: 'Set the connect secret (generated when absent)',
    example: { secret: 'my-connect-secret' },
    bodySchema: SecretBodySchema,
    handle: ({ params, body, c }, { context }) => {
      const community = context.store.communities.getBySubdomain(params.subdomain);
      if (!community) return communityNotFound(params.subdomain);
      const secret = body.secret ?? randomHex(32);
      context.store.communities.put({ ...community, connectSecret: secret });
      return c.json({ subdomain: community.subdomain, secret });
    },
  }),
  defineControlRoute({
    method: 'GET',
    path: '/__mock/communities/{subdomain}/users/{userId}/connections',
    summary: 'A member’s connect associations',
    handle: ({ params, c }, { context }) => {
      const { store } = context;
      const community = store.communities.getBySubdomain(params.subdomain);
      if (!community) return communityNotFound(params.subdomain);
      const user = findMember(store, community, params.userId);
      if (!user) return toResponse(memberNotFound(params.userId, community));
      return c.json(store.connections.listByUser(user.id));
    },
  }),
];
