import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { postJson } from './http-call.js';

// postJson over real loopback HTTP, one raw node:http server per case: what the service side
// reports for an answer, a cut answer, a slow or hung one, and no answer at all.

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

const post = (url: string, extra: { timeoutMs?: number; maxBodyBytes?: number } = {}) =>
  postJson(url, {
    headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
    body: '{"name":"Zoë"}',
    timeoutMs: 2_000,
    ...extra,
  });

describe('postJson', () => {
  it('sends the body with its length and reports status, content type and body', async () => {
    let seen: { method?: string; headers?: IncomingMessage['headers']; body?: string } = {};
    const url = await serve((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen = { method: req.method, headers: req.headers, body: Buffer.concat(chunks).toString() };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"message":"héllo ✓"}');
      });
    });
    const attempt = await post(url);
    expect(attempt).toMatchObject({
      status: 200,
      contentType: 'application/json',
      body: '{"message":"héllo ✓"}',
    });
    expect(attempt.truncated).toBeUndefined();
    expect(attempt.elapsedMs).toBeGreaterThan(0);
    expect(seen.method).toBe('POST');
    expect(seen.body).toBe('{"name":"Zoë"}');
    expect(seen.headers?.['content-length']).toBe(String(Buffer.byteLength('{"name":"Zoë"}')));
    expect(seen.headers?.['x-api-key']).toBe('k');
  });

  it('does not follow a redirect: the 3xx is the answer', async () => {
    let calls = 0;
    const url = await serve((_req, res) => {
      calls++;
      res.writeHead(302, { location: '/elsewhere' }).end();
    });
    const attempt = await post(url);
    expect(attempt.status).toBe(302);
    expect(attempt.contentType).toBeNull();
    expect(calls).toBe(1);
  });

  it('keeps at most maxBodyBytes of the answer and says it was cut', async () => {
    const url = await serve((_req, res) => res.writeHead(200).end('x'.repeat(5_000)));
    const attempt = await post(url, { maxBodyBytes: 1_000 });
    expect(attempt.status).toBe(200);
    expect(attempt.body).toBe('x'.repeat(1_000));
    expect(attempt.truncated).toBe(true);
  });

  it('reads no body with maxBodyBytes 0, even one that never ends', async () => {
    const url = await serve((_req, res) => res.writeHead(200).write('never ends'));
    const attempt = await post(url, { maxBodyBytes: 0 });
    expect(attempt).toMatchObject({ status: 200, body: '' });
  });

  it('is a timeout when no status comes in time', async () => {
    const url = await serve(() => {});
    const attempt = await post(url, { timeoutMs: 150 });
    expect(attempt).toMatchObject({ timedOut: true, error: 'no complete answer within 150 ms' });
    expect(attempt.status).toBeUndefined();
  });

  it('is a timeout when the status comes but the body never ends', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"message":');
    });
    const attempt = await post(url, { timeoutMs: 150 });
    expect(attempt).toMatchObject({ timedOut: true });
    expect(attempt.status).toBeUndefined();
  });

  it('says why when the peer cuts the answer short', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('{"mess');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const attempt = await post(url);
    expect(attempt.status).toBeUndefined();
    expect(attempt.error).toMatch(/connection|closed|aborted/);
  });

  it('names a refused connection', async () => {
    const url = await serve(() => {});
    const closed = servers.pop()!;
    await new Promise((resolve) => closed.close(resolve));
    const attempt = await post(url);
    expect(attempt.error).toBe('connection refused (ECONNREFUSED)');
  });

  it('refuses what is not an http(s) URL without sending anything', async () => {
    expect((await post('not a url')).error).toBe('invalid URL');
    expect((await post('file:///etc/passwd')).error).toBe('unsupported protocol file:');
    expect((await post('data:application/json,{}')).error).toBe('unsupported protocol data:');
  });

  it('reaches an IPv6 loopback address', async () => {
    const server = createServer((_req, res) => res.writeHead(200).end('{"message":"v6"}'));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '::1', resolve));
    const port = (server.address() as AddressInfo).port;
    const attempt = await post(`http://[::1]:${port}/verify`);
    expect(attempt).toMatchObject({ status: 200, body: '{"message":"v6"}' });
  });
});
