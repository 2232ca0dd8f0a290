import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener, type HttpBindings } from '@hono/node-server';
import { setReceivedBody } from './http/body.js';
import { MAX_BODY_BYTES } from './limits.js';
import type { MockPlatform } from './platform.js';

/** Options of {@link startMockServer}. */
export interface MockServerOptions {
  /** Port to listen on; 0 picks a free one (default 4000). */
  port?: number;
  /** Interface to bind (default 127.0.0.1: the mock has unauthenticated control routes). */
  host?: string;
}

/** A mock platform listening on a real port. */
export interface MockServer {
  /** `http://host:port`, with the port actually bound. */
  readonly url: string;
  readonly port: number;
  readonly platform: MockPlatform;
  /** Stops listening; resolves when every connection is closed. */
  close(): Promise<void>;
}

/**
 * Serves a mock platform over HTTP with `@hono/node-server`'s request listener.
 *
 * @example
 * const server = await startMockServer(createMockPlatform(), { port: 0 });
 * await fetch(`${server.url}/openapi.json`);
 * await server.close();
 */
export function startMockServer(
  platform: MockPlatform,
  options: MockServerOptions = {},
): Promise<MockServer> {
  const host = options.host ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    // A body is read from the Node request and handed to the app with its Request (http/body.ts).
    const listener = getRequestListener(async (request, env) => {
      const { incoming } = env as HttpBindings;
      if (hasBody(incoming)) setReceivedBody(request, await readNodeBody(incoming, MAX_BODY_BYTES));
      return platform.fetch(request);
    });
    const server = createServer((request, response) => {
      keepNoContentBare(response);
      void listener(request, response);
    });
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const shown = host.includes(':') ? `[${host}]` : host;
      const url = `http://${shown}:${port}`;
      platform.service.connect.listeningOn(url);
      platform.allowHost(host);
      resolve({
        url,
        port,
        platform,
        close: () =>
          new Promise<void>((done, fail) => {
            // Pending webhook retries would otherwise fire after the server is gone.
            platform.service.stop();
            if ('closeAllConnections' in server) server.closeAllConnections();
            server.close((error) => (error ? fail(error) : done()));
          }),
      });
    });
    server.listen(options.port ?? 4000, host);
  });
}

/**
 * "200, no content" answers (webhook update and delete) go out without a content type.
 * `@hono/node-server` gives every answer one (`text/plain` when the Response has none), so the
 * header is taken back from answers that declare `content-length: 0`: there is no content to type.
 */
function keepNoContentBare(response: ServerResponse): void {
  const writeHead = response.writeHead;
  response.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const headers = args.find(
      (arg): arg is OutgoingHttpHeaders => typeof arg === 'object' && arg !== null,
    );
    if (headers && String(headers['content-length']) === '0') delete headers['content-type'];
    return (writeHead as (...rest: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
}

/** A body follows: a length above 0, or chunks. A declared length over the limit is not read. */
function hasBody(incoming: IncomingMessage): boolean {
  const length = Number(incoming.headers['content-length'] ?? '0');
  if (length > MAX_BODY_BYTES) return false;
  return length > 0 || incoming.headers['transfer-encoding'] !== undefined;
}

/**
 * The body's bytes, up to a little past `limit`: past it the rest is read and dropped (the
 * connection stays usable) and the app, seeing more than the limit, answers 400 at once.
 */
function readNodeBody(incoming: IncomingMessage, limit: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = () => {
      incoming.off('data', onData);
      incoming.off('end', finish);
      // The error listener stays: a reset while the rest drains must not become an uncaught error.
      incoming.resume(); // Flowing without a listener: what is left is dropped.
      resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size > limit) finish();
    };
    incoming.on('data', onData);
    incoming.once('end', finish);
    incoming.once('error', reject);
    // A client gone before the end of its body: nothing to answer (a no-op after finish).
    incoming.once('close', () => reject(new Error('the request closed before its body ended')));
  });
}
