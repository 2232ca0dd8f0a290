import { createWebhookReceiver, type WebhookReceiverOptions } from '@questkit/core';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { bridge } from './bridge.js';

/** Options of {@link webhookEndpoint}: core's `createWebhookReceiver` options. */
export type WebhookEndpointOptions = WebhookReceiverOptions;

/**
 * Express handlers for the platform's webhook deliveries: the handler, then its own error handler,
 * so that a body parser's failures on the route are answered in shape too. Mount it before any
 * body parser: it reads the body itself, within its size limit and deadline. Answers 200
 * once the event is handled (or was already), 401 for a bad secret, 400 for a malformed delivery,
 * 500 when the handler throws or is too slow, so the platform retries.
 *
 * @example
 * app.post('/webhooks', webhookEndpoint({
 *   secret: process.env.WEBHOOK_SECRET!,
 *   on: { QUEST_SUCCEEDED: ({ data }) => credit(data.user.id, data.quest.id) },
 * }));
 */
export function webhookEndpoint(
  options: WebhookEndpointOptions,
): [RequestHandler, ErrorRequestHandler] {
  return bridge(createWebhookReceiver(options));
}
