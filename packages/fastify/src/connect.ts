import {
  type ConnectFlowOptions,
  createConnectFlow,
  publicRequestUrl,
  renderConnectError,
} from '@questkit/core';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';

/** Options of {@link connectEndpoint}: core's connect-flow options plus the route path. */
export interface ConnectEndpointOptions extends ConnectFlowOptions<FastifyRequest> {
  /** The route the task's redirect URL points to, e.g. `/connect`. */
  path: string;
}

/**
 * The community side of the identity-connect flow as an encapsulated Fastify plugin: a GET route
 * at `path` that verifies the signed redirect, asks `getIdentifier` who is logged in (sending
 * visitors to `loginUrl` first), calls `onLinked` and redirects to the signed callback. A bad
 * link answers 400 with a small HTML page, or JSON when the client does not accept HTML.
 *
 * The signature covers the public URL: set `publicUrl`, or Fastify's `trustProxy` so that
 * `request.protocol` and `request.host` follow `X-Forwarded-Proto` and `X-Forwarded-Host`.
 *
 * @example
 * app.register(connectEndpoint, {
 *   path: '/connect',
 *   secret: process.env.CONNECT_SECRET!,
 *   publicUrl: 'https://community.example',
 *   getIdentifier: (request) => request.session.get('userId'),
 *   loginUrl: '/login',
 *   onLinked: ({ svcUserId, identifier }) => links.save(svcUserId, identifier),
 * });
 */
export const connectEndpoint: FastifyPluginAsync<ConnectEndpointOptions> = async (app, options) => {
  const { path, ...flowOptions } = options;
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw new TypeError('[@questkit/fastify] connectEndpoint: path must start with "/"');
  }
  const flow = createConnectFlow<FastifyRequest>({
    ...flowOptions,
    onError:
      flowOptions.onError ??
      ((error) => app.log.error({ err: error }, '@questkit/fastify: connect')),
  });

  app.get(path, async (request, reply) => {
    // request.url is the path and query as received, so the raw form of the signature holds.
    const url = flow.publicOrigin
      ? publicRequestUrl(request.url, flow.publicOrigin)
      : `${request.protocol}://${request.host}${request.url}`;
    const action = await flow.handle(url, request);
    reply.header('cache-control', 'no-store');
    if (action.kind === 'redirect') return reply.redirect(action.location, action.status);
    const page = renderConnectError(action, request.headers.accept);
    return reply.code(action.status).type(page.contentType).send(page.body);
  });
};
