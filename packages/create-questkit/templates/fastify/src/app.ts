import type { VerifyHandler } from '@questkit/core';
import {
  connectEndpoint, // @connect
  verificationEndpoint,
  webhookEndpoint, // @webhooks
} from '@questkit/fastify';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { login, loginPage } from './login.js'; // @connect
import { REQUIRES, verify } from './quest.js';
import { sessionMember } from './session.js'; // @connect
import { DEDUPE, questSucceeded } from './webhooks.js'; // @webhooks

/**
 * The app: `POST /verify` answers the platform's claims,
 * `/connect` links accounts, `/login` signs a member in, // @connect
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
  // A minimal sign-in to replace with yours (src/login.ts): once it sets the session, /connect knows the member.
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    scope.get<{ Querystring: { returnTo?: string } }>('/login', async (request, reply) =>
      reply.type('text/html; charset=utf-8').send(loginPage(request.query.returnTo)),
    );
    scope.post<{ Body: Record<string, unknown> }>('/login', async (request, reply) => {
      const secure = (config.connect.publicUrl ?? request.protocol).startsWith('https');
      const form = request.body ?? {};
      const answer = await login(form, { secret: config.connect.sessionSecret, secure });
      if (answer.status !== 303) {
        return reply.code(answer.status).type('text/html; charset=utf-8').send(answer.html);
      }
      return reply.header('set-cookie', answer.cookie).redirect(answer.location, 303);
    });
  });
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
    // `dedupe: createRedisDedupe(client)` (or your own shared store) there: DEDUPE in src/webhooks.ts.
    ...(DEDUPE ? { dedupe: DEDUPE } : {}),
  });
  // @end
  app.get('/', async (_request, reply) =>
    reply.type('text/plain').send("my-quest-app: POST /verify answers the platform's claims."),
  );
  return app;
}
