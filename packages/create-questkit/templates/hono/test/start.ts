import { readConfig } from '../src/config.js';
import { startServer } from '../src/server.js';

/** Starts the app with `env` as its environment, on a free port of 127.0.0.1. */
export async function startApp(env: Record<string, string>) {
  const server = await startServer(readConfig({ ...env, PORT: '0' }));
  return { origin: server.url, close: () => server.close() };
}
