import { serveWorker } from '../scripts/node-server.js';

/** The Worker on a free port of 127.0.0.1, with `env` as its bindings. */
export async function startApp(env: Record<string, string>) {
  const server = await serveWorker(env, 0);
  return { origin: server.url, close: server.close };
}
