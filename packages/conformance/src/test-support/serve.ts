import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** A server listening on loopback for one test. */
export interface Served {
  /** `http://127.0.0.1:<port>` with `path` appended. */
  url: string;
  origin: string;
  close: () => Promise<void>;
}

/** Serves `listener` on 127.0.0.1 on a free port. */
export async function serve(listener: RequestListener, path = '/verify'): Promise<Served> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}${path}`,
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Reads a whole request body. */
export async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A tiny node:http -> fetch bridge: serves a Web `(Request) => Promise<Response>` handler, as
 * core's verifier exposes one, without a framework.
 */
export function fetchListener(handler: (request: Request) => Promise<Response>): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const body = await readAll(req);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string') headers.set(name, value);
        else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      }
      const method = req.method ?? 'GET';
      const request = new Request(new URL(req.url ?? '/', 'http://127.0.0.1'), {
        method,
        headers,
        ...(method === 'GET' || method === 'HEAD' ? {} : { body }),
      });
      const response = await handler(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    })().catch(() => {
      res.statusCode = 500;
      res.end();
    });
  };
}
