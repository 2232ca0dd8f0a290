import {
  connectEndpoint, // @connect
  verificationEndpoint,
  webhookEndpoint, // @webhooks
} from '@questkit/hono';
import { Hono } from 'hono';
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
export function createApp(config: Config): Hono {
  const app = new Hono();
  // app.all: the platform's checks send other methods too, which get a 400 {message}.
  app.all('/verify', verificationEndpoint({ apiKey: config.apiKey, requires: REQUIRES, verify }));
  // @if connect
  app.on(
    ['GET', 'POST'],
    '/connect',
    connectEndpoint({
      secret: config.connect.secret,
      ...(config.connect.publicUrl ? { publicUrl: config.connect.publicUrl } : {}),
      appName: 'my-quest-app',
      // The member of a session this app signed (src/session.ts): a cookie a visitor wrote names nobody.
      getIdentifier: (c) => sessionMember(c.req.header('cookie'), config.connect.sessionSecret),
      loginUrl: '/login',
    }),
  );
  app.get('/login', (c) =>
    c.text(
      'Your login goes here: once the member proved who they are, send sessionCookie(memberId, SESSION_SECRET) (src/session.ts) and redirect to returnTo.',
    ),
  );
  // @end
  // @if webhooks
  app.post(
    '/webhooks',
    webhookEndpoint({
      secret: config.webhookSecret,
      // Each event type you subscribed to on the platform; answer fast, do slow work later.
      on: {
        QUEST_SUCCEEDED: questSucceeded,
        JOINED_COMMUNITY: ({ data }) =>
          console.log(`new member: ${data.user.name ?? data.user.id}`),
      },
      // Deliveries are deduplicated in this process's memory: right for one long-lived instance only.
      // On Cloudflare Workers, serverless functions or several replicas, each instance has its own
      // memory, so a retry that reaches another instance runs the handler again: pass
      // `dedupe: createRedisDedupe(client)` (or your own shared store) there.
    }),
  );
  // @end
  app.get('/', (c) => c.text("my-quest-app: POST /verify answers the platform's claims."));
  return app;
}
