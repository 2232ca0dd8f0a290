import { createWebhookReceiver, type WebhookReceiverOptions } from '@questkit/core';
import { doorPlugin } from './bridge.js';

/** Options of {@link webhookEndpoint}: core's receiver options plus the route path. */
export interface WebhookEndpointOptions extends WebhookReceiverOptions {
  /** The route the webhook's uri points to, e.g. `/webhooks`. */
  path: string;
}

/**
 * The platform's webhook deliveries as an encapsulated Fastify plugin: one POST route at `path`.
 * The body goes to core unread (its parser stays in this plugin's scope). Answers 200 handled (or
 * already handled), 401 bad secret, 400 malformed, 500 when the handler throws or is too slow.
 *
 * @example
 * app.register(webhookEndpoint, {
 *   path: '/webhooks',
 *   secret: process.env.WEBHOOK_SECRET!,
 *   on: { QUEST_SUCCEEDED: ({ data }) => credit(data.user.id, data.quest.id) },
 * });
 */
export const webhookEndpoint = doorPlugin<WebhookEndpointOptions>(
  'webhookEndpoint',
  'POST',
  (options, app) => ({
    endpoint: createWebhookReceiver({
      ...options,
      onError:
        options.onError ??
        ((error, info) =>
          app.log.error({ err: error, ...info }, `@questkit/fastify: webhook ${info.reason}`)),
    }),
  }),
);
