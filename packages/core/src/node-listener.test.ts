import { Agent, createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fail, ok } from './results.js';
import { createVerifier, type VerifierOptions } from './verifier/index.js';

const KEY = 'node-listener-test-key';
const claim = {
  userId: 'u-1',
  communityId: 'c-1',
  subdomain: 'demo',
  questId: 'q-1',
  requestId: 'r-1',
  accounts: { email: 'member@example.com' },
};
const CLAIM = JSON.stringify(claim);

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  message: string;
  reusedSocket: boolean;
  /** Resolves true once the server closed the connection, false if still open 2 s later. */
  closed: Promise<boolean>;
}

interface Call {
  method?: string;
  headers?: Record<string, string>;
  chunks?: readonly string[];
  /** false leaves the body open: a client that stalls. */
  end?: boolean;
  agent?: Agent;
}

/** One request with node:http, which sends any method and a body that never ends. */
function send(port: number, call: Call = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      method: call.method ?? 'POST',
      path: '/verify',
      headers: call.headers ?? { 'x-api-key': KEY, 'content-type': 'application/json' },
      agent: call.agent ?? false,
    });
    req.setTimeout(5000, () => req.destroy(new Error('no answer within 5 s')));
    const closed = new Promise<boolean>((resolveClosed) => {
      req.on('socket', (socket) => {
        const giveUp = setTimeout(() => resolveClosed(false), 2000);
        socket.on('close', () => {
          clearTimeout(giveUp);
          resolveClosed(true);
        });
      });
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (part: string) => {
        text += part;
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          message: (JSON.parse(text) as { message: string }).message,
          reusedSocket: req.reusedSocket,
          closed,
        }),
      );
    });
    for (const chunk of call.chunks ?? [CLAIM]) req.write(chunk);
    if (call.end === false) req.flushHeaders();
    else req.end();
  });
}

const servers: Server[] = [];

async function serve(options: Partial<VerifierOptions<never>> = {}): Promise<number> {
  const verifier = createVerifier({
    apiKey: KEY,
    verify: () => ok('Claimed!'),
    ...options,
  } as VerifierOptions<never>);
  const server = createServer(verifier.node);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('verifier.node: a Node request listener, over real HTTP', () => {
  let port: number;
  beforeAll(async () => {
    port = await serve({
      quests: {
        'q-fail': () => fail('Subscribe first.'),
        'q-async': async () => ok('Later, but claimed.'),
        'q-throws': () => {
          throw new Error('database down');
        },
      },
      onError: () => {},
    });
  });

  it('answers a claim 200 {message} as JSON', async () => {
    const answer = await send(port);
    expect(answer).toMatchObject({ status: 200, message: 'Claimed!' });
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(answer.headers['content-length'])).toBe(
      Buffer.byteLength(JSON.stringify({ message: answer.message })),
    );
  });

  it.each([
    ['a failed check', 'q-fail', 400, 'Subscribe first.'],
    ['an async handler', 'q-async', 200, 'Later, but claimed.'],
    [
      'a handler that throws',
      'q-throws',
      400,
      'We could not verify this right now. Please try again later.',
    ],
  ])('answers %s', async (_, questId, status, message) => {
    const answer = await send(port, { chunks: [JSON.stringify({ ...claim, questId })] });
    expect({ status: answer.status, message: answer.message }).toEqual({ status, message });
  });

  it.each([
    ['a missing key', { 'content-type': 'application/json' }],
    ['a wrong key', { 'x-api-key': `${KEY}x` }],
  ])('refuses %s with 400 {message}', async (_, headers) => {
    const answer = await send(port, { headers });
    expect(answer.status).toBe(400);
    expect(answer.message).toMatch(/key/i);
  });

  it('answers bad JSON and a GET with 400 {message}', async () => {
    expect(await send(port, { chunks: ['{"userId":'] })).toMatchObject({ status: 400 });
    const get = await send(port, { method: 'GET', chunks: [] });
    expect(get.status).toBe(400);
    expect(get.message).toMatch(/POST/);
  });

  it('keeps a connection alive across claims when every body was read', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await send(port, { agent });
      const badJson = await send(port, { agent, chunks: ['{"userId":'] });
      const third = await send(port, { agent });
      expect([first.status, badJson.status, third.status]).toEqual([200, 400, 200]);
      expect([badJson.reusedSocket, third.reusedSocket]).toEqual([true, true]);
      expect(third.headers.connection).toBe('keep-alive');
    } finally {
      agent.destroy();
    }
  });

  it('refuses a wrong key before reading the body, and closes the connection', async () => {
    const answer = await send(port, { headers: { 'x-api-key': 'wrong' }, end: false });
    expect(answer.status).toBe(400);
    expect(answer.headers.connection).toBe('close');
    expect(await answer.closed).toBe(true);
  });

  it('answers 100 concurrent claims, each its own answer', async () => {
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        send(port, {
          chunks: [JSON.stringify({ ...claim, questId: index % 2 ? 'q-fail' : 'q-1' })],
        }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(50);
    expect(answers.filter((answer) => answer.message === 'Subscribe first.')).toHaveLength(50);
  });
});

describe('verifier.node: bodies it stops reading', () => {
  it('refuses a declared length over the limit at once, and closes the connection', async () => {
    const port = await serve({ maxBodyBytes: 100 });
    const answer = await send(port, {
      headers: { 'x-api-key': KEY, 'content-length': '5000' },
      chunks: ['{'],
      end: false,
    });
    expect(answer.status).toBe(400);
    expect(answer.message).toMatch(/large/i);
    expect(answer.headers.connection).toBe('close');
    expect(await answer.closed).toBe(true);
  });

  it('stops a chunked body at the limit, and closes the connection', async () => {
    const port = await serve({ maxBodyBytes: 100 });
    const answer = await send(port, { chunks: ['x'.repeat(80), 'y'.repeat(80)], end: false });
    expect(answer.status).toBe(400);
    expect(answer.message).toMatch(/large/i);
    expect(answer.headers.connection).toBe('close');
    expect(await answer.closed).toBe(true);
  });

  it('answers a body that never ends by the deadline, and closes the connection', async () => {
    const port = await serve({ timeoutMs: 150 });
    const started = Date.now();
    const answer = await send(port, { chunks: ['{"userId":'], end: false });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(answer.status).toBe(400);
    expect(answer.message).toMatch(/too long/);
    expect(answer.headers.connection).toBe('close');
    expect(await answer.closed).toBe(true);
  });

  it('answers a handler that outlives the deadline with 400 by the deadline', async () => {
    const port = await serve({
      timeoutMs: 100,
      verify: () => new Promise(() => {}),
      onError: () => {},
    });
    // The handler never settles: an answer at all is the deadline's, not before it.
    const started = Date.now();
    const answer = await send(port);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(answer.status).toBe(400);
    expect(answer.message).toMatch(/too long/);
  });
});
