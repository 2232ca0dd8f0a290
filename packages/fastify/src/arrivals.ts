import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

const byServer = new WeakMap<object, WeakMap<object, number>>();

/**
 * When each request reached `app`'s server: the platform's budget starts then, before any app
 * hook runs. Node's 'request' event marks that moment; one listener a server, however many
 * endpoints it serves. An injected request has no such event, so it has no arrival here.
 */
export function arrivalsOf(app: FastifyInstance): WeakMap<object, number> {
  const known = byServer.get(app.server);
  if (known) return known;
  const arrivals = new WeakMap<object, number>();
  app.server.on('request', (request: IncomingMessage) => arrivals.set(request, Date.now()));
  byServer.set(app.server, arrivals);
  return arrivals;
}
