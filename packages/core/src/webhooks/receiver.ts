import type { DoorAnswer, DoorEndpoint, DoorRequest } from '../adapter/door.js';
import { type FrontEnds, frontEnds } from '../adapter/front-ends.js';
import { webhookAnswer } from './answer.js';
import { readDelivery } from './delivery.js';
import { readReceiverOptions, type WebhookReceiverOptions } from './options.js';
import { runOnce } from './run-once.js';

export {
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  type WebhookErrorInfo,
  type WebhookHandlers,
  type WebhookReceiverOptions,
} from './options.js';

/**
 * Receives the platform's webhook deliveries through the adapter door. It checks the webhook's
 * secret (the platform puts it in the body's `secret` field; this is the one place that reads it)
 * in constant time, validates the event, claims its id in the dedupe store (retries,
 * replays and concurrent copies repeat it), runs the handler of its type under a deadline, and
 * answers: 200 handled (or already handled), 401 bad or missing secret, 400 malformed, 409 the
 * same event is being handled by another delivery, 500 the handler threw or was too slow or the
 * dedupe store failed, so the platform retries. An error's own message is never echoed.
 *
 * @example
 * const receiver = createWebhookReceiver({
 *   secret: process.env.WEBHOOK_SECRET!,
 *   on: {
 *     QUEST_SUCCEEDED: async ({ data }) => credit(data.user.id, data.quest.id, data.quest.xp),
 *   },
 * });
 * export const POST = receiver.fetch; // or http.createServer(receiver.node)
 */
export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookReceiver {
  const config = readReceiverOptions(options);
  const handle = async (request: DoorRequest): Promise<DoorAnswer> => {
    try {
      const delivery = await readDelivery(config, request);
      return 'event' in delivery ? await runOnce(config, delivery) : delivery;
    } catch (error) {
      // A bug: the platform retries, the member never sees it.
      config.report(error, { reason: 'handler_error', eventId: '', eventType: '' });
      return webhookAnswer(500, 'The delivery could not be handled.');
    }
  };
  return {
    handle,
    // Writing fails only when the platform left: it retries the delivery.
    ...frontEnds(handle, (error) =>
      config.report(error, { reason: 'handler_error', eventId: '', eventType: '' }),
    ),
  };
}

/**
 * A webhook receiver: `fetch` for Web runtimes (Next.js, Workers, Bun, Deno), `node` for
 * `http.createServer`, and `handle` for adapters.
 */
export interface WebhookReceiver extends DoorEndpoint, FrontEnds<unknown> {}
