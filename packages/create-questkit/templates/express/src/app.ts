import {
  connectEndpoint, // @connect
  verificationEndpoint,
  webhookEndpoint, // @webhooks
} from '@questkit/express';
import express, { type Express } from 'express';
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
export function createApp(config: Config): Express {
  const app = express();
  app.disable('x-powered-by');
  // Before any body parser: the endpoints read the body themselves, after the key check.
  // app.all: the platform's checks send other methods too, which get a 400 {message}.
  app.all('/verify', verificationEndpoint({ apiKey: config.apiKey, requires: REQUIRES, verify }));
  // @if connect
  app.all(
    '/connect',
    connectEndpoint({
      secret: config.connect.secret,
      ...(config.connect.publicUrl ? { publicUrl: config.connect.publicUrl } : {}),
      appName: 'my-quest-app',
      // The member of a session this app signed (src/session.ts): a cookie a visitor wrote names nobody.
      getIdentifier: (req) => sessionMember(req.get('cookie'), config.connect.sessionSecret),
      loginUrl: '/login',
    }),
  );
  // A minimal sign-in to replace with yours (src/login.ts): once it sets the session, /connect knows the member.
  app.get('/login', (req, res) => {
    res.type('html').send(loginPage(req.query.returnTo));
  });
  app.post('/login', express.urlencoded({ extended: false, limit: '4kb' }), async (req, res) => {
    const secure = (config.connect.publicUrl ?? req.protocol).startsWith('https');
    const answer = await login(req.body ?? {}, { secret: config.connect.sessionSecret, secure });
    if (answer.status !== 303) {
      res.status(answer.status).type('html').send(answer.html);
      return;
    }
    res.set('set-cookie', answer.cookie).redirect(303, answer.location);
  });
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
      // `dedupe: createRedisDedupe(client)` (or your own shared store) there: DEDUPE in src/webhooks.ts.
      ...(DEDUPE ? { dedupe: DEDUPE } : {}),
    }),
  );
  // @end
  // The rest of your app, with the body parser most Express apps have.
  app.use(express.json());
  app.get('/', (_req, res) => {
    res.type('text/plain').send("my-quest-app: POST /verify answers the platform's claims.");
  });
  return app;
}
