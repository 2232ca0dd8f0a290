// Test helpers: a Hono app on a real loopback port, and a raw HTTP client that can send what a
// browser's fetch cannot (any method, a lying content-length, a body that never ends).
import { type Agent, request as httpRequest } from 'node:http';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';

/** A running server; `close` ends every connection so a test never waits on a stuck socket. */
export interface Listening {
  origin: string;
  port: number;
  close(): Promise<void>;
}

// biome-ignore lint/suspicious/noExplicitAny: any Hono app, whatever its Env and schema.
type AnyHono = Hono<any, any, any>;

export function listen(app: AnyHono): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      resolve({
        origin: `http://127.0.0.1:${info.port}`,
        port: info.port,
        close: () =>
          new Promise((done) => {
            if ('closeAllConnections' in server) server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
    server.once('error', reject);
  });
}

/** What a raw request sends. */
export interface RawRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  /** Bytes to send and end with; `open` sends them and never ends the body. */
  body?: string | Uint8Array;
  /** Keep the request body open after `body` (a client that never finishes its upload). */
  open?: boolean;
  agent?: Agent | false;
  /** Gives up (and fails the test) after this many ms; default 5000. */
  timeoutMs?: number;
}

/** What came back: status, headers and the body as text. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export function send(origin: string, raw: RawRequest = {}): Promise<RawResponse> {
  const url = new URL(raw.path ?? '/', origin);
  const headers = { ...raw.headers };
  const framed = Object.keys(headers).some((name) =>
    ['content-length', 'transfer-encoding'].includes(name.toLowerCase()),
  );
  // Node frames a GET body only when told its length; unframed bytes would be a second request.
  if (raw.body !== undefined && !framed) {
    headers['content-length'] = String(Buffer.byteLength(raw.body));
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: raw.method ?? 'POST',
        headers,
        agent: raw.agent ?? false,
        timeout: raw.timeoutMs ?? 5000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          });
          // The server answered; a body we never meant to finish is abandoned here.
          if (raw.open) req.destroy();
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${raw.timeoutMs ?? 5000} ms`)));
    // After the answer, an error of the abandoned upload is moot: reject is a no-op then.
    req.on('error', reject);
    if (raw.body !== undefined) req.write(raw.body);
    if (!raw.open) req.end();
    else req.flushHeaders();
  });
}
