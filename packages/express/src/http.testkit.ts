import { once } from 'node:events';
import {
  type ClientRequest,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import express4 from 'express4';

/** Both supported majors; every suite runs once per entry. */
export const EXPRESS_VERSIONS = [
  // The tests drive both through Express 5's types; types.test.ts checks Express 4's own.
  { name: 'Express 4', express: express4 as unknown as typeof express },
  { name: 'Express 5', express },
] as const;

export type ExpressApp = ReturnType<typeof express>;

export const API_KEY = 'test-key-0123456789';

/** A claim as the platform sends it. */
export function claim(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    userId: 'user-1',
    communityId: 'community-1',
    subdomain: 'demo',
    questId: 'quest-1',
    requestId: 'request-1',
    accounts: { email: 'member@example.com' },
    ...overrides,
  };
}

/** Listens on an ephemeral loopback port; `close` also ends idle keep-alive sockets. */
export async function listen(
  app: ExpressApp,
): Promise<{ origin: string; close: () => Promise<void> }> {
  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * One request over a fresh connection, with full control of method, headers and body (a stream
 * body is sent chunked). Rejects after `timeoutMs` so a hanging server fails the test.
 */
export async function send(
  url: string,
  init: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Uint8Array | AsyncIterable<string | Uint8Array>;
    timeoutMs?: number;
  } = {},
): Promise<Reply> {
  const { body } = init;
  // Asks for keep-alive (Node's client asks for close without an agent), so that a
  // `connection: close` in the answer is the server's decision.
  const headers: Record<string, string> = { connection: 'keep-alive', ...init.headers };
  // Node's client sends a GET or DELETE body unframed unless told its length.
  if (typeof body === 'string' || body instanceof Uint8Array) {
    headers['content-length'] ??= String(Buffer.byteLength(body));
  }
  const req = httpRequest(url, {
    method: init.method ?? 'POST',
    headers,
    agent: false,
    timeout: init.timeoutMs ?? 5000,
  });
  req.on('timeout', () => req.destroy(new Error(`no answer within ${init.timeoutMs ?? 5000} ms`)));
  const replied = once(req, 'response') as Promise<[IncomingMessage]>;
  if (body === undefined || typeof body === 'string' || body instanceof Uint8Array) {
    req.end(body);
  } else {
    void (async () => {
      try {
        for await (const chunk of body) {
          if (req.destroyed) return;
          if (!req.write(chunk)) await drainedOrClosed(req);
        }
        req.end();
      } catch {
        // The server may close the connection while we still send: its answer is what we test.
      }
    })();
  }
  const [res] = await replied;
  res.setEncoding('utf8');
  let text = '';
  for await (const chunk of res) text += chunk;
  req.destroy();
  return { status: res.statusCode ?? 0, headers: res.headers, text };
}

/**
 * Resolves on the request's next `drain` or `close`, and rejects on its `error`. The listeners of
 * the event that did not come are removed: a long body waits for `drain` many times, and
 * leftover `close` and `error` listeners would pile up on the request past Node's leak warning.
 */
async function drainedOrClosed(req: ClientRequest): Promise<void> {
  const settled = new AbortController();
  try {
    await Promise.race([
      once(req, 'drain', { signal: settled.signal }),
      once(req, 'close', { signal: settled.signal }),
    ]);
  } finally {
    settled.abort();
  }
}

/** The parsed JSON body, or undefined when the body is not JSON. */
export function jsonOf(reply: Reply): unknown {
  try {
    return JSON.parse(reply.text);
  } catch {
    return undefined;
  }
}
