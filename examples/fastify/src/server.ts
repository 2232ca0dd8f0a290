import type { AddressInfo } from 'node:net';
import { type AppOptions, createApp } from './app.js';

/** Options of {@link startServer}: the app's options and where to listen. */
export interface ServerOptions extends AppOptions {
  /** Default 4010, the port the mock platform's demo quests call; 0 picks a free one. */
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
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

/**
 * Starts the meetup's app on a real port.
 *
 * @example
 * const server = await startServer({ apiKey: 'task-key', port: 0 });
 * console.log(server.verifyUrl);
 * await server.close();
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { port = 4010, host = '127.0.0.1', ...appOptions } = options;
  const app = createApp(appOptions);
  await app.listen({ port, host });
  const { port: bound } = app.server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${bound}`;
  return {
    url,
    verifyUrl: `${url}/verify`,
    close: async () => {
      app.server.closeAllConnections();
      await app.close();
    },
  };
}
