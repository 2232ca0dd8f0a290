import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchTransport, STOPPED, send, type Transport } from './send.js';

// `send` over its default transport (fetch) on real loopback HTTP, one raw node:http server per
// case. The mock's node:http transport is held to the same cases in its own package.

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/verify`;
}

const post = (url: string, options: { timeoutMs?: number; maxBodyBytes?: number } = {}) =>
  send(
    { method: 'POST', url, headers: { 'content-type': 'application/json' }, body: '{"a":"Zoë"}' },
    // Long enough that only an endpoint that never answers times out, however busy the machine.
    { timeoutMs: 10_000, ...options },
  );

describe('send over fetch', () => {
  it('sends the request and observes status, content type and body', async () => {
    let seen = '';
    const url = await serve((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen = Buffer.concat(chunks).toString();
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"héllo ✓"}');
      });
    });
    const answer = await post(url);
    expect(answer).toMatchObject({
      status: 400,
      contentType: 'application/json',
      body: '{"message":"héllo ✓"}',
    });
    expect(answer.truncated).toBeUndefined();
    expect(answer.elapsedMs).toBeGreaterThan(0);
    expect(seen).toBe('{"a":"Zoë"}');
  });

  it('does not follow a redirect: the 3xx and its location are the answer', async () => {
    let calls = 0;
    const url = await serve((_req, res) => {
      calls++;
      res.writeHead(302, { location: '/elsewhere' }).end();
    });
    const answer = await post(url);
    expect(answer).toMatchObject({ status: 302, location: '/elsewhere' });
    expect(calls).toBe(1);
  });

  it('keeps at most maxBodyBytes of the answer and says it was cut', async () => {
    const url = await serve((_req, res) => res.writeHead(200).end('x'.repeat(5_000)));
    const answer = await post(url, { maxBodyBytes: 1_000 });
    expect(answer).toMatchObject({ status: 200, body: 'x'.repeat(1_000), truncated: true });
  });

  it('cuts a body that never ends at maxBodyBytes, without waiting for its end', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200);
      res.write('y'.repeat(2_000));
    });
    const answer = await post(url, { maxBodyBytes: 100, timeoutMs: 5_000 });
    expect(answer).toMatchObject({ status: 200, body: 'y'.repeat(100), truncated: true });
    expect(answer.timedOut).toBeUndefined();
  });

  it('is a timeout when no status comes in time', async () => {
    const url = await serve(() => {});
    const answer = await post(url, { timeoutMs: 150 });
    expect(answer).toMatchObject({ timedOut: true, error: 'no complete answer within 150 ms' });
    expect(answer.status).toBeUndefined();
  });

  it('is a timeout when the status comes but the body never ends', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"message":');
    });
    const answer = await post(url, { timeoutMs: 150 });
    expect(answer).toMatchObject({ timedOut: true });
    expect(answer.status).toBeUndefined();
  });

  it('names a refused connection, without a status', async () => {
    const url = await serve(() => {});
    const closed = servers.pop()!;
    await new Promise((resolve) => closed.close(resolve));
    const answer = await post(url);
    expect(answer.status).toBeUndefined();
    expect(answer.error).toBe('connection refused (ECONNREFUSED)');
  });

  it('refuses what is not an http(s) URL without sending anything', async () => {
    expect((await post('not a url')).error).toBe('invalid URL');
    expect((await post('file:///etc/passwd')).error).toBe('unsupported protocol file:');
  });

  it("stops when the caller's signal aborts", async () => {
    const url = await serve(() => {});
    const stop = new AbortController();
    const pending = send(
      { method: 'GET', url, headers: {} },
      { timeoutMs: 5_000, signal: stop.signal },
    );
    setTimeout(() => stop.abort(), 50);
    const answer = await pending;
    expect(answer).toMatchObject({ error: STOPPED });
    expect(answer.timedOut).toBeUndefined();
  });
});

describe('send with a transport of its own', () => {
  it('takes any transport, and still decides the deadline and the size limit itself', async () => {
    const seen: string[] = [];
    // A transport that answers at once with a body of three chunks, then one that never comes.
    const transport: Transport = async (request, signal) => {
      seen.push(`${request.method} ${request.url}`);
      return {
        status: 200,
        header: (name) => (name === 'content-type' ? 'text/plain' : null),
        body: (async function* () {
          yield new TextEncoder().encode('abc');
          yield new TextEncoder().encode('def');
          await new Promise((resolve) => signal.addEventListener('abort', resolve));
        })(),
      };
    };
    const cut = await send(
      { method: 'POST', url: 'http://127.0.0.1:9/x', headers: {} },
      { timeoutMs: 2_000, maxBodyBytes: 4, transport },
    );
    expect(cut).toMatchObject({
      status: 200,
      contentType: 'text/plain',
      body: 'abcd',
      truncated: true,
    });
    const hung = await send(
      { method: 'POST', url: 'http://127.0.0.1:9/x', headers: {} },
      { timeoutMs: 100, transport },
    );
    expect(hung).toMatchObject({ timedOut: true });
    expect(seen).toEqual(['POST http://127.0.0.1:9/x', 'POST http://127.0.0.1:9/x']);
  });

  it('fetchTransport takes a fetch handler: no port, no network', async () => {
    const handler = async (input: string, init: RequestInit) =>
      new Response(JSON.stringify({ message: `${init.method} ${new URL(input).pathname}` }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    const answer = await send(
      { method: 'POST', url: 'http://endpoint.invalid/verify', headers: {}, body: '{}' },
      { timeoutMs: 2_000, transport: fetchTransport(handler) },
    );
    expect(answer).toMatchObject({ status: 200, body: '{"message":"POST /verify"}' });
  });
});
