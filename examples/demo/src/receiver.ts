import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { WebhookEvent } from '@questkit/core';
import { WEBHOOK_EVENT_TYPES } from '@questkit/core/api';
import { webhookEndpoint } from '@questkit/hono';
import { Hono } from 'hono';

/** An event the receiver handled. */
export interface Received {
  at: number;
  event: WebhookEvent;
}

/** The demo's webhook receiver: `@questkit/hono`'s `webhookEndpoint` on a loopback port. */
export interface WebhookReceiver {
  /** `http://127.0.0.1:port/webhooks`: the uri to register. */
  readonly url: string;
  /** Events handled, once each: retries and replays of one event are deduplicated. */
  readonly received: readonly Received[];
  /** Takes the webhook's secret, which the platform shows once the webhook exists. */
  useSecret(secret: string): void;
  /** Resolves with the first handled event that matches, waiting at most `timeoutMs`. */
  waitFor(match: (received: Received) => boolean, timeoutMs: number): Promise<Received>;
  close(): Promise<void>;
}

/**
 * Starts the receiver on a loopback port (0, the default: a free one). Until it has the webhook's secret it answers 503,
 * so the platform retries rather than deliver to a receiver that cannot check the secret.
 *
 * @example
 * const receiver = await startWebhookReceiver();
 * receiver.useSecret(webhook.secret);
 * const joined = await receiver.waitFor((r) => r.event.type === 'JOINED_COMMUNITY', 5000);
 */
export async function startWebhookReceiver(port = 0): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const waiters = new Set<(item: Received) => void>();
  const record = (event: WebhookEvent) => {
    const item = { at: Date.now(), event };
    received.push(item);
    for (const waiter of waiters) waiter(item);
  };
  let endpoint: ReturnType<typeof webhookEndpoint> | undefined;
  const app = new Hono();
  app.post('/webhooks', (c, next) =>
    endpoint ? endpoint(c, next) : c.json({ message: 'The receiver has no secret yet.' }, 503),
  );
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' });
    started.once('error', reject);
    started.once('listening', () => resolve(started));
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/webhooks`,
    received,
    useSecret(secret) {
      endpoint = webhookEndpoint({
        secret,
        // Every event type, known (parsed by its type) or not, is recorded as delivered.
        on: Object.fromEntries(WEBHOOK_EVENT_TYPES.map((type) => [type, record])),
        onUnknown: record,
      });
    },
    waitFor(match, timeoutMs) {
      const found = received.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = (item: Received) => {
          if (!match(item)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(item);
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching webhook event within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
