import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

const ARRIVED_AT = Symbol('questkit.arrivedAt');

type Marked = IncomingMessage & { [ARRIVED_AT]?: number };

/** Notes on the request itself when it reached the server (no table to keep per request). */
function markArrival(request: Marked): void {
  request[ARRIVED_AT] = Date.now();
}

/**
 * Marks when each request reaches `app`'s server: the platform's budget starts then, before any
 * app hook runs. Node's 'request' event marks that moment; the listener goes first, ahead of
 * Fastify's own (which runs the hooks, and the handler too when no hook waits), and once a
 * server, however many endpoints it serves.
 */
export function markArrivals(app: FastifyInstance): void {
  if (!app.server.listeners('request').includes(markArrival)) {
    app.server.prependListener('request', markArrival);
  }
}

/** When `request` reached the server; undefined for an injected one, which has no such event. */
export function arrivalOf(request: IncomingMessage): number | undefined {
  return (request as Marked)[ARRIVED_AT];
}
