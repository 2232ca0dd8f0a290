import { createWebhookReceiver, type WebhookReceiverOptions } from '@questkit/core';
import type { Env, Handler, Input } from 'hono';
import { bridge } from './bridge.js';

/** Options of {@link webhookEndpoint}: core's `createWebhookReceiver` options. */
export type WebhookEndpointOptions = WebhookReceiverOptions;

/**
 * A Hono handler for the platform's webhook deliveries. Answers 200 once the event is handled (or
 * was already), 401 for a bad secret, 400 for a malformed delivery, 500 when the handler throws or
 * is too slow, so the platform retries. Runs wherever Hono runs (Node, Bun, Deno, Workers).
 *
 * @example
 * app.post('/webhooks', webhookEndpoint({
 *   secret: env.WEBHOOK_SECRET,
 *   on: { QUEST_SUCCEEDED: ({ data }) => credit(data.user.id, data.quest.id) },
 * }));
 */
export function webhookEndpoint<
  E extends Env = Env,
  P extends string = string,
  I extends Input = Input,
>(options: WebhookEndpointOptions): Handler<E, P, I, Promise<Response>> {
  return bridge(createWebhookReceiver(options));
}
