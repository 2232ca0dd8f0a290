/**
 * @module
 * A community's endpoints as a Cloudflare Worker, with Hono: the platform's verification call
 * (`/verify`), the identity-connect flow (`/connect`) and the webhook receiver (`/webhooks`).
 * Secrets come from the Worker's `env` (`wrangler secret put ...`), never `process.env`, and no
 * `node:` API is used: the same bundle also runs on Bun and Deno.
 */
import { fail, ok } from '@questkit/core';
import { connectEndpoint, verificationEndpoint, webhookEndpoint } from '@questkit/hono';
import { Hono } from 'hono';
import { sessionMember } from './session.js';

/** The Worker's bindings: its secrets. */
export interface Env {
  QUEST_API_KEY: string;
  CONNECT_SECRET: string;
  WEBHOOK_SECRET: string;
  /** Signs the session cookie (src/session.ts); without it anyone could name any member. */
  SESSION_SECRET: string;
}

type AppEnv = { Bindings: Env };

/** The endpoints of one `env`: built once per isolate, since options are checked at start-up. */
function endpointsOf(env: Env) {
  if (!env.SESSION_SECRET || env.SESSION_SECRET.length < 32) {
    throw new TypeError('[@questkit/example-workers] set SESSION_SECRET (32 characters or more)');
  }
  return {
    verify: verificationEndpoint<'email', AppEnv>({
      apiKey: env.QUEST_API_KEY,
      requires: ['email'],
      verify: ({ accounts }) =>
        accounts.email.endsWith('@example.com')
          ? ok('Welcome aboard!')
          : fail('Use your work email.'),
    }),
    connect: connectEndpoint<AppEnv>({
      secret: env.CONNECT_SECRET,
      appName: 'Acme Workers',
      // The member of a session this Worker signed: a cookie the visitor wrote names nobody.
      getIdentifier: (c) => sessionMember(c, env.SESSION_SECRET),
      loginUrl: '/login',
    }),
    webhooks: webhookEndpoint<AppEnv>({
      secret: env.WEBHOOK_SECRET,
      on: {
        // Find the member by data.user (here: by email), credit data.quest.
        QUEST_SUCCEEDED: ({ data }) =>
          console.log(
            `credit ${data.user.email ?? data.user.id}: ${data.quest.name} (+${data.quest.xp ?? 0} xp)`,
          ),
      },
    }),
  };
}

const built = new WeakMap<Env, ReturnType<typeof endpointsOf>>();
const endpoints = (env: Env) => {
  let found = built.get(env);
  if (!found) {
    found = endpointsOf(env);
    built.set(env, found);
  }
  return found;
};

const app = new Hono<AppEnv>();
app.all('/verify', (c, next) => endpoints(c.env).verify(c, next));
app.on(['GET', 'POST'], '/connect', (c, next) => endpoints(c.env).connect(c, next));
app.post('/webhooks', (c, next) => endpoints(c.env).webhooks(c, next));
// Your own login: once the member proved who they are, `openSession(c, memberId, secret)`
// (src/session.ts), then send them to `returnTo` and the connect flow resumes.
app.get('/login', (c) => c.text(`Log in here, then continue to ${c.req.query('returnTo') ?? '/'}`));

export default app;
