/**
 * The community's endpoints as a Cloudflare Worker, with Hono. Secrets come from the Worker's
 * `env` (`wrangler secret put ...`), never `process.env`, and no `node:` API is used.
 */
import {
  connectEndpoint, // @connect
  verificationEndpoint,
  webhookEndpoint, // @webhooks
} from '@questkit/hono';
import { Hono } from 'hono';
import { login, loginPage } from './login.js'; // @connect
import { REQUIRES, verify } from './quest.js';
import { sessionMember } from './session.js'; // @connect
import { DEDUPE, questSucceeded, warnIfMemoryDedupe } from './webhooks.js'; // @webhooks

/** The Worker's bindings: its secrets. */
export interface Env {
  /** The API key of the quest task (the platform sends it in X-Api-Key). Several, comma-separated, during a rotation. */
  QUEST_API_KEY: string;
  // @if connect
  /** The community's connect secret, from the platform's integration settings. */
  CONNECT_SECRET: string;
  /** Signs this app's session cookie: 32 characters or more (openssl rand -hex 32). */
  SESSION_SECRET: string;
  /** The public origin the platform sends members to (https://community.example), when a proxy sits in front. */
  PUBLIC_URL?: string;
  // @end
  // @if webhooks
  /** The webhook's secret (whsec_...), from the platform's webhook list. */
  WEBHOOK_SECRET: string;
  // @end
}

type AppEnv = { Bindings: Env };

const REQUIRED = [
  'QUEST_API_KEY',
  'CONNECT_SECRET', // @connect
  'SESSION_SECRET', // @connect
  'WEBHOOK_SECRET', // @webhooks
] as const;

/** The secrets `env` lacks: the Worker answers nothing but an error until they are set. */
export function missingSecrets(env: Partial<Env>): string[] {
  return REQUIRED.filter((name) => !env[name]?.trim());
}

/** The endpoints of one `env`, built once per isolate: options are checked when they are built. */
function endpointsOf(env: Env) {
  const missing = missingSecrets(env);
  if (missing.length > 0) {
    throw new TypeError(`[my-quest-app] set ${missing.join(', ')} (wrangler secret put)`);
  }
  // @if connect
  if (env.SESSION_SECRET.length < 32) {
    throw new TypeError('[my-quest-app] SESSION_SECRET needs 32 characters or more');
  }
  // @end
  return {
    verify: verificationEndpoint<(typeof REQUIRES)[number], AppEnv>({
      apiKey: env.QUEST_API_KEY.split(',').map((key) => key.trim()),
      requires: REQUIRES,
      verify,
    }),
    // @if connect
    connect: connectEndpoint<AppEnv>({
      secret: env.CONNECT_SECRET,
      ...(env.PUBLIC_URL ? { publicUrl: env.PUBLIC_URL } : {}),
      appName: 'my-quest-app',
      // The member of a session this Worker signed (src/session.ts): a cookie a visitor wrote names nobody.
      getIdentifier: (c) => sessionMember(c.req.header('cookie'), env.SESSION_SECRET),
      loginUrl: '/login',
    }),
    // @end
    // @if webhooks
    webhooks: webhookEndpoint<AppEnv>({
      secret: env.WEBHOOK_SECRET,
      // Each event type you subscribed to on the platform; answer fast, do slow work later.
      on: {
        QUEST_SUCCEEDED: questSucceeded,
        JOINED_COMMUNITY: ({ data }) =>
          console.log(`new member: ${data.user.name ?? data.user.id}`),
      },
      // Deliveries are deduplicated in this isolate's memory: it stops only the copies that reach the
      // same isolate, and a Worker runs many, short-lived. A retry that reaches another isolate runs
      // the handler again: pass a shared store as `dedupe` (`createRedisDedupe(client)` with a Redis
      // reachable from Workers, or your own store on Durable Objects or D1): DEDUPE in src/webhooks.ts.
      ...(DEDUPE ? { dedupe: DEDUPE } : {}),
    }),
    // @end
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

// @if webhooks
// wrangler writes NODE_ENV into the bundle: production for deploy, development for dev.
declare const process: { env: { NODE_ENV?: string } };
warnIfMemoryDedupe(process.env.NODE_ENV);

// @end
const app = new Hono<AppEnv>();
// app.all: the platform's checks send other methods too, which get a 400 {message}.
app.all('/verify', (c, next) => endpoints(c.env).verify(c, next));
// @if connect
app.on(['GET', 'POST'], '/connect', (c, next) => endpoints(c.env).connect(c, next));
// A minimal sign-in to replace with yours (src/login.ts): once it sets the session, /connect knows
// the member. Its codes live in one isolate's memory: fine for wrangler dev, not for a real login.
app.get('/login', (c) => c.html(loginPage(c.req.query('returnTo'))));
app.post('/login', async (c) => {
  endpoints(c.env); // refuses to run without the secrets
  const secure = (c.env.PUBLIC_URL ?? c.req.url).startsWith('https:');
  const answer = await login(await c.req.parseBody(), { secret: c.env.SESSION_SECRET, secure });
  if (answer.status !== 303) return c.html(answer.html, answer.status);
  c.header('set-cookie', answer.cookie);
  return c.redirect(answer.location, 303);
});
// @end
app.post('/webhooks', (c, next) => endpoints(c.env).webhooks(c, next)); // @webhooks
app.get('/', (c) => c.text("my-quest-app: POST /verify answers the platform's claims."));

export default app;
