import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { type AppOptions, createApp } from './app.js';

/** Options of {@link startServer}: the app's options and where to listen. */
export interface ServerOptions extends AppOptions {
  /** Default 4010, the port the mock platform's demo quests redirect to; 0 picks a free one. */
  port?: number;
  /** Default 127.0.0.1: nothing outside this machine reaches it unless you say so. */
  host?: string;
}

/** A running example. */
export interface RunningServer {
  /** `http://host:port`, with the port actually bound. */
  readonly url: string;
  /** The verification endpoint: `${url}/verify`. */
  readonly verifyUrl: string;
  /** The connect redirect URL to set in a task: `${url}/connect`. */
  readonly connectUrl: string;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

/**
 * Serves the community app on Node with `@hono/node-server`.
 *
 * @example
 * const server = await startServer({ apiKey: 'task-key', connectSecret: 'secret', port: 0 });
 * console.log(server.connectUrl);
 * await server.close();
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { port = 4010, host = '127.0.0.1', ...appOptions } = options;
  const app = createApp(appOptions);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, port, hostname: host });
    started.once('error', reject);
    started.once('listening', () => {
      started.off('error', reject);
      resolve(started);
    });
  });
  const { port: bound } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${bound}`;
  return {
    url,
    verifyUrl: `${url}/verify`,
    connectUrl: `${url}/connect`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
