import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.js';
import type { Config } from './config.js';

/** A running app. */
export interface RunningServer {
  /** `http://host:port`, with the port actually bound. */
  readonly url: string;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

const urlOf = (host: string, port: number) =>
  `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

/** Starts the app on `config.host` and `config.port`. */
export async function startServer(config: Config): Promise<RunningServer> {
  const server = createServer(createApp(config));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: urlOf(config.host, port),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
