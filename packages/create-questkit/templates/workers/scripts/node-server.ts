import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import worker, { type Env, missingSecrets } from '../src/index.js';

/**
 * The Worker behind Node's HTTP server, with `env` as its bindings: for the tests, and for
 * `npm run start:node` where wrangler is not wanted. Refuses missing secrets.
 */
export async function serveWorker(env: Partial<Env>, port: number, host = '127.0.0.1') {
  const missing = missingSecrets(env);
  if (missing.length > 0) throw new Error(`set ${missing.join(', ')} in the environment`);
  const server = createServer(getRequestListener((request) => worker.fetch(request, env as Env)));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
