// Shared by the service-side tests (not exported by the package): small HTTP servers on loopback
// that play a community's verification endpoint or webhook receiver, and a platform on a manual
// clock with a terse JSON caller.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createManualClock, type ManualClock } from './clock.js';
import { createMockPlatform, type MockPlatform, type MockPlatformOptions } from './platform.js';
import { DEMO } from './seed/demo-ids.js';

/** A request a test server received. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The body parsed as JSON, or undefined. */
  json: unknown;
}

/** How a test server answers: status, headers, body; or `hang` to never answer. */
export type Reply =
  | { status: number; body?: string; headers?: Record<string, string>; delayMs?: number }
  | { hang: true };

/** A test server on 127.0.0.1. */
export interface TestServer {
  url: string;
  port: number;
  received: Received[];
  close(): Promise<void>;
}

/** JSON `{message}` reply. */
export const message = (status: number, text: string): Reply => ({
  status,
  body: JSON.stringify({ message: text }),
  headers: { 'content-type': 'application/json' },
});

/** Starts a server that answers each request with `reply(request, index)`. */
export async function startServer(
  reply: (request: Received, index: number) => Reply | Promise<Reply>,
): Promise<TestServer> {
  const received: Received[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      json = undefined;
    }
    const request: Received = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body,
      json,
    };
    const index = received.push(request) - 1;
    const answer = await reply(request, index);
    if ('hang' in answer) return;
    const send = () => {
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? '');
    };
    if (answer.delayMs) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        send();
      }, answer.delayMs);
      timers.add(timer);
    } else send();
  };
  const server = createServer((req, res) => {
    void handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A decoded answer of the platform. */
export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A platform on a manual clock, with its errors and a JSON caller. */
export interface ServicePlatform {
  platform: MockPlatform;
  clock: ManualClock;
  errors: unknown[];
  /** Calls the platform in-process; `/public/...` paths get the demo read-write key. */
  call<T = unknown>(method: string, path: string, body?: unknown): Promise<Answer<T>>;
}

/** A seeded platform on a manual clock whose answers are checked against core's schemas. */
export function createServicePlatform(options: MockPlatformOptions = {}): ServicePlatform {
  const clock = createManualClock('2025-06-01T12:00:00.000Z');
  const errors: unknown[] = [];
  const platform = createMockPlatform({
    clock,
    validateResponses: true,
    rateLimit: false,
    onError: (error) => errors.push(error),
    ...options,
  });
  const call = async <T>(method: string, path: string, body?: unknown): Promise<Answer<T>> => {
    const headers = new Headers();
    if (path.startsWith('/public/')) headers.set('x-api-key', DEMO.apiKeys.readWrite);
    if (body !== undefined) headers.set('content-type', 'application/json');
    const response = await platform.fetch(
      new Request(`http://mock.test${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  };
  return { platform, clock, errors, call };
}

/** A quest creation body with one API task. */
export function apiQuest(settings: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    categoryId: DEMO.modules.onboarding,
    name: 'Service test quest',
    published: true,
    recurrence: 'daily',
    conditionOperator: 'AND',
    rewards: [{ type: 'xp', value: 100 }],
    tasks: [{ type: 'api', settings }],
    ...extra,
  };
}

/** Creates a quest through the public API; returns its id. */
export async function createQuest(
  service: ServicePlatform,
  body: Record<string, unknown>,
): Promise<{ id: string; taskIds: string[] }> {
  const answer = await service.call<{ id: string; tasks: Array<{ id: string }> }>(
    'POST',
    '/public/communities/demo/quests',
    body,
  );
  if (answer.status !== 200) throw new Error(`quest creation failed: ${answer.text}`);
  return { id: answer.body.id, taskIds: answer.body.tasks.map((task) => task.id) };
}
