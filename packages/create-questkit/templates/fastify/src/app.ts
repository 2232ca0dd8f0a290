import type { VerifyHandler } from '@questkit/core';
import {
  connectEndpoint, // @connect
  verificationEndpoint,
  webhookEndpoint, // @webhooks
} from '@questkit/fastify';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { REQUIRES, verify } from './quest.js';
import { sessionMember } from './session.js'; // @connect
import { questSucceeded } from './webhooks.js'; // @webhooks

/**
 * The app: `POST /verify` answers the platform's claims,
 * `/connect` links accounts, // @connect
 * `POST /webhooks` receives deliveries, // @webhooks
 * `/` says what it is.
 */
export async function createApp(config: Config): Promise<FastifyInstance> {
  const app = Fastify();
  // The plugin answers every method on its path: the platform's checks send others too.
  await app.register(verificationEndpoint, {
    path: '/verify',
    apiKey: config.apiKey,
    requires: REQUIRES,
    // Fastify's register cannot carry REQUIRES into verify's type; the plugin checks them first.
    verify: verify as VerifyHandler,
  });
  // @if connect
  await app.register(connectEndpoint, {
    path: '/connect',
    secret: config.connect.secret,
    ...(config.connect.publicUrl ? { publicUrl: config.connect.publicUrl } : {}),
    appName: 'my-quest-app',
    // The member of a session this app signed (src/session.ts): a cookie a visitor wrote names nobody.
    getIdentifier: (request) => sessionMember(request.headers.cookie, config.connect.sessionSecret),
    loginUrl: '/login',
  });
  app.get('/login', async (_request, reply) =>
    reply
      .type('text/plain')
      .send(
        'Your login goes here: once the member proved who they are, send sessionCookie(memberId, SESSION_SECRET) (src/session.ts) and redirect to returnTo.',
      ),
  );
  // @end
  // @if webhooks
  await app.register(webhookEndpoint, {
    path: '/webhooks',
    secret: config.webhookSecret,
    // Each event type you subscribed to on the platform; answer fast, do slow work later.
    on: {
      QUEST_SUCCEEDED: questSucceeded,
      JOINED_COMMUNITY: ({ data }) => console.log(`new member: ${data.user.name ?? data.user.id}`),
    },
    // Deliveries are deduplicated in this process's memory: right for one long-lived instance only.
    // On Cloudflare Workers, serverless functions or several replicas, each instance has its own
    // memory, so a retry that reaches another instance runs the handler again: pass
    // `dedupe: createRedisDedupe(client)` (or your own shared store) there.
  });
  // @end
  app.get('/', async (_request, reply) =>
    reply.type('text/plain').send("my-quest-app: POST /verify answers the platform's claims."),
  );
  return app;
}
