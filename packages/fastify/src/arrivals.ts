import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

const byServer = new WeakMap<object, WeakMap<object, number>>();

/**
 * When each request reached `app`'s server: the platform's budget starts then, before any app
 * hook runs. Node's 'request' event marks that moment; one listener a server, however many
 * endpoints it serves. An injected request has no such event, so it has no arrival here.
 */
export function arrivalsOf(app: FastifyInstance): WeakMap<object, number> {
  let arrivals = byServer.get(app.server);
  if (!arrivals) {
    const times = new WeakMap<object, number>();
    app.server.on('request', (request: IncomingMessage) => times.set(request, Date.now()));
    byServer.set(app.server, times);
    arrivals = times;
  }
  return arrivals;
}
