import type { IncomingMessage } from 'node:http';
import { createWebhookReceiver, type WebhookReceiverOptions } from '@questkit/core';
import type { FastifyPluginAsync } from 'fastify';
import { doorRequest, writeAnswer } from './door.js';

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
 *   on: { JOINED_COMMUNITY: (event) => welcome(event.data.userId) },
 * });
 */
export const webhookEndpoint: FastifyPluginAsync<WebhookEndpointOptions> = async (app, options) => {
  const { path, ...receiverOptions } = options;
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw new TypeError('[@questkit/fastify] webhookEndpoint: path must start with "/"');
  }
  const receiver = createWebhookReceiver({
    ...receiverOptions,
    onError:
      receiverOptions.onError ??
      ((error, info) =>
        app.log.error({ err: error, ...info }, `@questkit/fastify: webhook ${info.reason}`)),
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload: IncomingMessage, done) => done(null, payload));
  app.setErrorHandler(async (error: { statusCode?: number }, request, reply) => {
    const body = {
      kind: 'failed',
      reason: error.statusCode === 413 ? 'too_large' : 'unreadable',
    } as const;
    return writeAnswer(reply, await receiver.handle(doorRequest(request, reply, body), request));
  });
  app.post(path, async (request, reply) => {
    const stream = (request.body as IncomingMessage | undefined) ?? request.raw;
    return writeAnswer(
      reply,
      await receiver.handle(doorRequest(request, reply, { kind: 'stream', stream }), request),
    );
  });
};
