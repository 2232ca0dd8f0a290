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
  const app = await createApp(config);
  await app.listen({ port: config.port, host: config.host });
  const { port } = app.server.address() as AddressInfo;
  return { url: urlOf(config.host, port), close: () => app.close() };
}
