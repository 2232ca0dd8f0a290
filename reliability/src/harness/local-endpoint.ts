/**
 * A small HTTP server on loopback that plays a community endpoint or a webhook receiver and
 * misbehaves on demand: slow answers, 5xx, huge bodies, reset connections, no answer at all. It
 * records every request it receives, so tests can count what was sent to it.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as received. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Arrival, `performance.now()`. */
  at: number;
}

/** What to do with a request. */
export type Action =
  | { kind: 'answer'; status: number; contentType?: string; body: string; delayMs?: number }
  /** A status, then `bytes` of body streamed. */
  | { kind: 'huge'; status: number; bytes: number }
  /** Destroys the connection without a byte of answer. */
  | { kind: 'reset' }
  /** Never answers (until the server closes). */
  | { kind: 'hang' };

/** A running local endpoint. */
export interface LocalEndpoint {
  url: string;
  port: number;
  received: Received[];
  close(): Promise<void>;
}

/**
 * Starts a local endpoint that answers each request as `behave` says; `behave` also sees every
 * request received so far (this one included), to answer by history.
 */
export function startEndpoint(
  behave: (request: Received, received: readonly Received[]) => Action,
): Promise<LocalEndpoint> {
  const received: Received[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: Received = {
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: performance.now(),
      };
      received.push(request);
      const action = behave(request, received);
      switch (action.kind) {
        case 'reset':
          req.socket.destroy();
          return;
        case 'hang':
          return;
        case 'huge': {
          res.writeHead(action.status, { 'content-type': 'application/json' });
          const chunk = Buffer.alloc(64 * 1024, 0x20);
          let left = action.bytes;
          const pump = () => {
            while (left > 0) {
              left -= chunk.length;
              if (!res.write(chunk)) {
                res.once('drain', pump);
                return;
              }
            }
            res.end();
          };
          res.on('error', () => {});
          pump();
          return;
        }
        case 'answer': {
          const send = () => {
            timers.delete(timer);
            if (res.destroyed) return;
            res.writeHead(action.status, {
              'content-type': action.contentType ?? 'application/json',
            });
            res.end(action.body);
          };
          const timer = setTimeout(send, action.delayMs ?? 0);
          timers.add(timer);
        }
      }
    });
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        received,
        close: () =>
          new Promise((done) => {
            for (const timer of timers) clearTimeout(timer);
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** A loopback port with nothing listening on it (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A stable spread of a string over [0, 1). */
export function spread(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 16777619) >>> 0;
  }
  return hash / 2 ** 32;
}
