import type { IncomingMessage } from 'node:http';
import type { DoorAnswer, DoorBody, DoorEndpoint, DoorRequest } from '@questkit/core/adapter';
import { nodeHeader } from '@questkit/core/adapter';
import type {
  FastifyError,
  FastifyInstance,
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  HTTPMethods,
} from 'fastify';
import { arrivalOf, markArrivals } from './arrivals.js';

/** What a plugin serves at its path: the endpoint, and the URL it sees when not the one received. */
export interface Door {
  endpoint: DoorEndpoint<FastifyRequest>;
  url?: (request: FastifyRequest) => string;
}

/**
 * Fastify's side of core's door, once for every endpoint (verification, connect, webhooks): an
 * encapsulated plugin with one route at `path`. The body goes to core unread, whatever its type
 * (core judges no content type, and checks what it can on the headers before it reads a byte);
 * its content-type parser and error handler stay in the plugin's scope, so the rest of the app
 * keeps Fastify's own.
 */
export function doorPlugin<O extends { path: string }>(
  name: string,
  /** `all`: every method Fastify routes, so that others get the endpoint's own refusal. */
  method: HTTPMethods | HTTPMethods[] | 'all',
  open: (options: Omit<O, 'path'>, app: FastifyInstance) => Door,
): FastifyPluginAsync<O> {
  return async (app, options) => {
    const { path, ...rest } = options;
    if (typeof path !== 'string' || !path.startsWith('/')) {
      throw new TypeError(`[@questkit/fastify] ${name}: path must start with "/"`);
    }
    const { endpoint, url } = open(rest, app);
    markArrivals(app);
    const serve = async (request: FastifyRequest, reply: FastifyReply, body: DoorBody) => {
      const door: DoorRequest = {
        method: request.method,
        // The path and query as received, so the raw form of a connect signature holds.
        url: url?.(request) ?? request.url,
        header: (header) => nodeHeader(request.headers, header),
        body,
        // The deadline counts from the request's arrival, however long the app's own hooks took.
        receivedAt: arrivalOf(request.raw) ?? Date.now(),
      };
      return writeAnswer(reply, await endpoint.handle(door, request));
    };

    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', passStream);
    // The same parser again under the type the platform sends: Fastify caches the parser of a
    // named type, but looks the catch-all up anew on every request.
    app.addContentTypeParser('application/json', passStream);
    // Errors raised before the handler: an unparseable content type (core reads the body as any
    // other), a body over Fastify's own limit or one it could not read, an app hook's error (a
    // rate limiter's 429, say). Core drains what is left of the body before it answers.
    app.setErrorHandler(async (error: FastifyError, request, reply) =>
      serve(
        request,
        reply,
        error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? { kind: 'stream', stream: request.raw }
          : {
              kind: 'failed',
              reason: error.statusCode === 413 ? 'too_large' : 'unreadable',
              stream: request.raw,
            },
      ),
    );
    const handler = (request: FastifyRequest, reply: FastifyReply) =>
      serve(request, reply, {
        kind: 'stream',
        stream: (request.body as IncomingMessage | undefined) ?? request.raw,
      });
    if (method === 'all') app.all(path, handler);
    else app.route({ method, url: path, handler });
  };
}

const passStream = (
  _request: FastifyRequest,
  payload: IncomingMessage,
  done: (error: null, body: IncomingMessage) => void,
) => done(null, payload);

/**
 * Sets core's status and headers; the body is returned for Fastify to send as a handler's
 * result, as the hand-written route's is, rather than the reply (a thenable, which costs a
 * promise adoption more a request).
 */
function writeAnswer(reply: FastifyReply, answer: DoorAnswer): string {
  reply.code(answer.status).headers(answer.headers);
  if (answer.cookies.length > 0) reply.header('set-cookie', [...answer.cookies]);
  if (answer.close) reply.header('connection', 'close');
  return answer.body;
}
