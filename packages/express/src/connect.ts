import { type ConnectFlowOptions, createConnectFlow } from '@questkit/core';
import type { Request, RequestHandler } from 'express';
import { bodyOf, doorRequest, writeAnswer } from './door.js';

/**
 * Options of {@link connectEndpoint}: core's connect-flow options, with the Express request
 * handed to `getIdentifier`, `loginUrl` and `onLinked`.
 */
export type ConnectEndpointOptions = ConnectFlowOptions<Request>;

/**
 * An Express handler for the community side of the identity-connect flow, for GET and POST on
 * one path (mount it with `app.all`): it verifies the signed redirect, sends visitors to
 * `loginUrl` (the flow resumes after login), shows a logged-in member a page naming both
 * accounts, and links only when the member confirms it there (a POST bound to the session and
 * the browser); then `onLinked`, and a redirect to the signed callback.
 *
 * The signature covers the public URL: set `publicUrl` behind a proxy or TLS terminator, or let
 * Express's `trust proxy` setting supply the protocol and host.
 *
 * @example
 * app.all(
 *   '/connect',
 *   connectEndpoint({
 *     secret: process.env.CONNECT_SECRET!,
 *     publicUrl: 'https://community.example',
 *     appName: 'Acme Builders',
 *     getIdentifier: (req) => req.session.userId,
 *     loginUrl: '/login',
 *     onLinked: ({ svcUserId, identifier }) => links.save(svcUserId, identifier),
 *   }),
 * );
 */
export function connectEndpoint(options: ConnectEndpointOptions): RequestHandler {
  const flow = createConnectFlow(options);
  return (req, res, next) => {
    const origin = flow.publicOrigin ?? `${req.protocol}://${requestHost(req) ?? ''}`;
    // Joined as text, not resolved: a path such as `//host/x` must stay a path, and a URL that
    // does not parse is core's 400, not a throw.
    flow
      .handle(doorRequest(req, bodyOf(req), origin + req.originalUrl), req)
      .then((answer) => writeAnswer(res, answer))
      .catch(next);
  };
}

/**
 * The host with its port, as Express 5's `req.host` reads it: `X-Forwarded-Host` only when the
 * `trust proxy` setting trusts the peer, else `Host`. Express 4's `req.host` drops the port.
 */
function requestHost(req: Request): string | undefined {
  const trust = req.app.get('trust proxy fn') as (
    address: string | undefined,
    i: number,
  ) => boolean;
  const forwarded = req.get('x-forwarded-host');
  if (!forwarded || !trust(req.socket.remoteAddress, 0)) return req.get('host');
  return forwarded.split(',', 1)[0]!.trim();
}
