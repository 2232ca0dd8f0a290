import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { getRequestListener, type HttpBindings } from '@hono/node-server';
import { drainBody } from '@questkit/core/adapter';
import { RequestClosedError, setBodyReader } from './http/body.js';
import { MAX_BODY_BYTES } from './limits.js';
import type { MockPlatform } from './platform.js';

/** Options of {@link startMockServer}. */
export interface MockServerOptions {
  /** Port to listen on; 0 picks a free one (default 4000). */
  port?: number;
  /** Interface to bind (default 127.0.0.1: the mock has unauthenticated control routes). */
  host?: string;
  /** Most ms to receive a request's headers; past it the connection gets a 408 and is closed (default 10 000). */
  headersTimeoutMs?: number;
  /** Most ms to receive a whole request, headers and body (default 30 000; at least `headersTimeoutMs`). */
  requestTimeoutMs?: number;
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
  const headersTimeout = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const requestTimeout =
    options.requestTimeoutMs ?? Math.max(DEFAULT_REQUEST_TIMEOUT_MS, headersTimeout);
  if (
    !(Number.isInteger(headersTimeout) && headersTimeout > 0) ||
    !(Number.isInteger(requestTimeout) && requestTimeout >= headersTimeout)
  ) {
    return Promise.reject(
      new TypeError(
        '[@questkit/mock-platform] headersTimeoutMs and requestTimeoutMs must be positive whole ms, requestTimeoutMs at least headersTimeoutMs',
      ),
    );
  }
  return new Promise((resolve, reject) => {
    // The app gets a reader of the body with its Request (http/body.ts): the body is read only
    // if a route asks for it, after the Host check, the control token and the credentials.
    const listener = getRequestListener(async (request, env) => {
      const { incoming, outgoing } = env as HttpBindings;
      if (hasBody(incoming)) {
        let reading: Promise<Uint8Array> | undefined;
        setBodyReader(request, () => {
          reading ??= readNodeBody(incoming, MAX_BODY_BYTES);
          return reading;
        });
      }
      const response = await platform.fetch(request);
      // Answered before the body ended (refused, or over the limit): the rest is drained first
      // (core's drainBody, within the bounds questkit's endpoints drain with), and a body still
      // coming then closes the connection after the answer, lingering (`lingerOnClose`). Nothing
      // more is read for a client refused on its credentials: stalled keyless uploads drained
      // together would grow the mock's memory past what reliability's exposed-attacks suite allows.
      const refusedCredentials = response.status === 401 || response.status === 403;
      const ended =
        incoming.complete ||
        (!refusedCredentials &&
          (await drainBody(
            { body: { kind: 'stream', stream: incoming } },
            Number.POSITIVE_INFINITY,
          )));
      if (!ended) {
        outgoing.setHeader('connection', 'close');
        lingerOnClose(incoming.socket);
      }
      return response;
    });
    const server = createServer(
      {
        headersTimeout,
        requestTimeout,
        // How often Node enforces the two deadlines (default every 30 s).
        connectionsCheckingInterval: Math.min(1_000, headersTimeout),
      },
      (request, response) => {
        keepNoContentBare(response);
        void listener(request, response);
      },
    );
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

const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** A body follows: a length above 0, or chunks. A declared length over the limit is not read. */
function hasBody(incoming: IncomingMessage): boolean {
  const length = Number(incoming.headers['content-length'] ?? '0');
  if (length > MAX_BODY_BYTES) return false;
  return length > 0 || incoming.headers['transfer-encoding'] !== undefined;
}

/** How long a connection closed on an unread body stays open, unread, after its answer. */
const LINGER_MS = 2_000;

/**
 * Closes a connection answered before its body ended without resetting it under the answer.
 * Closing a socket that holds unread bytes makes the kernel send a reset at once; a client still
 * sending then gets a write error (EPIPE) and may drop the answer it had not read yet (CI lost 2
 * of 40 stalled keyless uploads' 401s that way, and a loaded machine 21 of 1,200). So the
 * connection stops reading, sends its end after the answer, and is destroyed {@link LINGER_MS}
 * later, by when the client has read both. Reading stops because Node's server would otherwise
 * read the rest of the body and drop it, at line speed: 64 MiB within 300 ms on loopback.
 *
 * Node's server closes such a connection through the socket's `destroySoon` once the answer is
 * written: this socket gets its own. Node also resumes the socket, a tick later, to drop a body
 * nobody read: each `resume` is paused again.
 */
function lingerOnClose(socket: Socket): void {
  if (socket.destroyed) return;
  socket.destroySoon = function (this: Socket) {
    const hold = () => this.pause();
    this.on('resume', hold);
    hold();
    this.end();
    setTimeout(() => this.destroy(), LINGER_MS).unref();
  };
}

/**
 * The body's bytes, up to a little past `limit`: past it the rest is read and dropped (see
 * core's `drainBody`) and the app, seeing more than the limit, answers 400.
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
    incoming.once('error', () => reject(new RequestClosedError()));
    // A client gone (or cut at the request deadline) before the end of its body: nothing to
    // answer (a no-op after finish).
    incoming.once('close', () => reject(new RequestClosedError()));
  });
}
