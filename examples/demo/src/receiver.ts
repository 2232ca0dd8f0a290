import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the receiver got. */
export interface Received {
  at: number;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** A local webhook receiver. */
export interface WebhookReceiver {
  /** `http://127.0.0.1:port/webhooks`: the uri to register. */
  readonly url: string;
  readonly received: readonly Received[];
  /** Resolves with the first request that matches, waiting at most `timeoutMs`. */
  waitFor(match: (received: Received) => boolean, timeoutMs: number): Promise<Received>;
  close(): Promise<void>;
}

// A webhook body is a small JSON document; a bound keeps a confused sender from filling memory.
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Starts a receiver on a free loopback port that answers 204 to every POST and keeps the JSON
 * bodies it got.
 *
 * @example
 * const receiver = await startWebhookReceiver();
 * const event = await receiver.waitFor((r) => (r.body as { type?: string }).type === 'JOINED_COMMUNITY', 5000);
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const waiters = new Set<(item: Received) => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      if (req.method !== 'POST' || size > MAX_BODY_BYTES) {
        res.writeHead(req.method === 'POST' ? 413 : 405).end();
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400).end();
        return;
      }
      const item = { at: Date.now(), path: req.url ?? '/', headers: req.headers, body };
      received.push(item);
      for (const waiter of waiters) waiter(item);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received,
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
          reject(new Error(`no matching webhook delivery within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
