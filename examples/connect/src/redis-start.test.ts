import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectRedis } from './redis-start.js';

// Attack of the fifth round: a Redis that accepts the connection and never answers (stalled,
// or something else on its port) kept the example waiting at start-up, with nothing said.

let server: Server | undefined;
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function silentRedis(): Promise<string> {
  server = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => {});
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return `redis://:hunter2-password@127.0.0.1:${port}`;
}

describe('connectRedis at start-up', () => {
  it('a Redis that never answers is a clear error within its time limit, without the URL', async () => {
    const url = await silentRedis();
    const failure = await connectRedis(url, { timeoutMs: 500 }).then(
      () => null,
      (error: unknown) => error as Error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(failure!.message).toMatch(/Redis \(REDIS_URL\) did not answer within 500 ms/);
    expect(failure!.message).not.toContain('hunter2');
  });

  it('a port nothing listens on is a clear error too', async () => {
    const url = await silentRedis();
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    await expect(connectRedis(url, { timeoutMs: 500 })).rejects.toThrow(/Redis \(REDIS_URL\)/);
  });
});
