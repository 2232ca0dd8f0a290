import {
  createConnectFlow, // @connect
  createVerifier,
  createWebhookReceiver, // @webhooks
} from '@questkit/core';
import { REQUIRES, verify } from './quest';
import { sessionMember } from './session'; // @connect
import { DEDUPE, questSucceeded } from './webhooks'; // @webhooks

// Built at the first request, not at import: `next build` loads route modules without the
// deployment's secrets, which are read from its environment at run time.
let verifier: ReturnType<typeof createVerifier> | undefined;
let flow: ReturnType<typeof createConnectFlow<Request>> | undefined; // @connect
let receiver: ReturnType<typeof createWebhookReceiver> | undefined; // @webhooks

const required = (name: string) => {
  const value = process.env[name]?.trim();
  if (!value) throw new TypeError(`[my-quest-app] set ${name} in the environment`);
  return value;
};

/** The verification endpoint. */
export function getVerifier() {
  verifier ??= createVerifier({
    apiKey: required('QUEST_API_KEY')
      .split(',')
      .map((key) => key.trim()),
    requires: REQUIRES,
    verify,
  });
  return verifier;
}

// @if connect

/** The community side of the identity-connect flow, with the app's signed session (session.ts). */
export function getConnectFlow() {
  if (flow) return flow;
  const sessionSecret = required('SESSION_SECRET');
  flow = createConnectFlow<Request>({
    secret: required('CONNECT_SECRET'),
    appName: 'my-quest-app',
    // The member of a session this app signed: a cookie a visitor wrote names nobody.
    getIdentifier: (request) => sessionMember(request.headers.get('cookie'), sessionSecret),
    loginUrl: '/login',
    // Required: Next.js reports request.url with a host of its own, not the one the platform signed.
    publicUrl: required('PUBLIC_URL'),
  });
  return flow;
}

/** The login's session settings (login.ts): its secret, and a Secure cookie when PUBLIC_URL is https. */
export function getSessionSettings() {
  getConnectFlow(); // refuses to run without every connect setting
  return {
    secret: required('SESSION_SECRET'),
    secure: required('PUBLIC_URL').startsWith('https:'),
  };
}
// @end
// @if webhooks

/** The webhook receiver. */
export function getWebhookReceiver() {
  receiver ??= createWebhookReceiver({
    secret: required('WEBHOOK_SECRET'),
    // Each event type you subscribed to on the platform; answer fast, do slow work later.
    on: {
      QUEST_SUCCEEDED: questSucceeded,
      JOINED_COMMUNITY: ({ data }) => console.log(`new member: ${data.user.name ?? data.user.id}`),
    },
    // Deliveries are deduplicated in this process's memory: right for one long-lived instance only.
    // On Cloudflare Workers, serverless functions or several replicas, each instance has its own
    // memory, so a retry that reaches another instance runs the handler again: pass
    // `dedupe: createRedisDedupe(client)` (or your own shared store) there: DEDUPE in lib/webhooks.ts.
    ...(DEDUPE ? { dedupe: DEDUPE } : {}),
  });
  return receiver;
}
// @end
