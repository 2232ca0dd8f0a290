import { type ConnectFlowOptions, createConnectFlow, publicRequestUrl } from '@questkit/core';
import type { FastifyRequest } from 'fastify';
import { doorPlugin } from './bridge.js';

/** Options of {@link connectEndpoint}: core's connect-flow options plus the route path. */
export interface ConnectEndpointOptions extends ConnectFlowOptions<FastifyRequest> {
  /** The route the task's redirect URL points to, e.g. `/connect`. */
  path: string;
}

/**
 * The community side of the identity-connect flow as an encapsulated Fastify plugin: GET and POST
 * at `path`. It verifies the signed redirect, sends visitors to `loginUrl` first, shows a
 * logged-in member a page naming both accounts and links only when the member confirms there
 * (a POST bound to the session and the browser); then `onLinked` and a redirect to the signed
 * callback. A bad link answers 400 with a small HTML page, or JSON for API clients.
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
export const connectEndpoint = doorPlugin<ConnectEndpointOptions>(
  'connectEndpoint',
  ['GET', 'POST'],
  (options, app) => {
    const flow = createConnectFlow<FastifyRequest>({
      ...options,
      onError:
        options.onError ?? ((error) => app.log.error({ err: error }, '@questkit/fastify: connect')),
    });
    // request.url is the path and query as received, so the raw form of the signature holds.
    const url = (request: FastifyRequest) =>
      flow.publicOrigin
        ? publicRequestUrl(request.url, flow.publicOrigin)
        : `${request.protocol}://${request.host}${request.url}`;
    return { endpoint: flow, url };
  },
);
