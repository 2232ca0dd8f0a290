// Test helpers shared by this package's tests (not part of the build).
import { type Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

export const API_KEY = 'qk-test-key-7f3a9c2e';
export const OLD_API_KEY = 'qk-test-key-old-41b8';

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

/** A response reduced to what the tests look at, whatever the transport. */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A request as the tests describe it. */
export interface Call {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

/** Starts the app on a loopback port and returns its origin. */
export async function listen(app: FastifyInstance): Promise<URL> {
  return new URL(await app.listen({ port: 0, host: '127.0.0.1' }));
}

/** In-process, through Fastify's `inject`. */
export async function inject(app: FastifyInstance, call: Call): Promise<Answer> {
  const response: LightMyRequestResponse = await app.inject({
    method: (call.method ?? 'POST') as 'POST',
    url: call.path ?? '/verify',
    headers: call.headers ?? {},
    ...(call.body === undefined ? {} : { payload: Buffer.from(call.body) }),
  });
  const headers = response.headers as IncomingHttpHeaders;
  return { status: response.statusCode, headers, body: response.body };
}

/** Options of {@link rawRequest}. */
export interface RawCall extends Call {
  /** Body parts written one by one. */
  chunks?: readonly (string | Uint8Array)[];
  /** false leaves the body open: a client that stalls. */
  end?: boolean;
  /** Gives up after this long; no test should come near it. */
  timeoutMs?: number;
  /** A keep-alive agent, to see whether the server keeps the connection; default a fresh one. */
  agent?: Agent;
}

/** A real HTTP answer, with whether the server closed the connection after it. */
export interface RawAnswer extends Answer {
  /** Resolves true once the socket closes, false if it is still open after `timeoutMs`. */
  socketClosed: Promise<boolean>;
  /** True when the request went over a connection an earlier request had used. */
  reusedSocket: boolean;
}

/**
 * One request on a fresh connection with `node:http`, which, unlike fetch, sends any method,
 * any header (or none) and a body that never ends.
 */
export function rawRequest(origin: URL, call: RawCall): Promise<RawAnswer> {
  const timeoutMs = call.timeoutMs ?? 4000;
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: origin.hostname,
      port: origin.port,
      method: call.method ?? 'POST',
      path: call.path ?? '/verify',
      headers: call.headers ?? {},
      agent: call.agent ?? false,
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const socketClosed = new Promise<boolean>((resolveClosed) => {
      req.on('socket', (socket) => {
        const giveUp = setTimeout(() => {
          resolveClosed(false);
          socket.destroy();
        }, timeoutMs);
        socket.on('close', () => {
          clearTimeout(giveUp);
          resolveClosed(true);
        });
      });
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(parts).toString('utf8'),
          socketClosed,
          reusedSocket: req.reusedSocket,
        });
      });
    });
    if (call.body !== undefined) req.write(call.body);
    for (const chunk of call.chunks ?? []) req.write(chunk);
    if (call.end !== false) req.end();
    else req.flushHeaders();
  });
}

/** Real HTTP through {@link rawRequest}, with the same shape as {@link inject}. */
export async function overHttp(origin: URL, call: Call): Promise<Answer> {
  const { status, headers, body } = await rawRequest(origin, call);
  return { status, headers, body };
}

/** The verification contract: 200 or 400, JSON, `{message}` with a readable message. */
export function expectContract(answer: Answer, method = 'POST'): string {
  expect([200, 400]).toContain(answer.status);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  if (method === 'HEAD') return '';
  const body: unknown = JSON.parse(answer.body);
  expect(body).toEqual({ message: expect.any(String) });
  const { message } = body as { message: string };
  expect(message.trim()).toBe(message);
  expect(message.length).toBeGreaterThan(0);
  expect(message).not.toMatch(/[\u0000-\u001f\u007f]/);
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
  return message;
}

/** A 400 of the contract, returning its message. */
export function expect400(answer: Answer, method = 'POST'): string {
  const message = expectContract(answer, method);
  expect(answer.status).toBe(400);
  return message;
}
