import { type ConnectFlowOptions, createConnectFlow, renderConnectError } from '@questkit/core';
import type { Request, RequestHandler } from 'express';

/**
 * Options of {@link connectEndpoint}: core's connect-flow options, with the Express request
 * handed to `getIdentifier`, `loginUrl` and `onLinked`.
 */
export type ConnectEndpointOptions = ConnectFlowOptions<Request>;

/**
 * An Express handler for the community side of the identity-connect flow: it verifies the
 * signed redirect, asks `getIdentifier(req)` who is logged in (sending visitors to `loginUrl`
 * with a signed state token, so the flow resumes after login), calls `onLinked`, and redirects
 * the member to the signed callback. A bad link answers 400 with a small HTML page (JSON for API
 * clients).
 *
 * The signature covers the public URL: set `publicUrl` behind a proxy or TLS terminator, or let
 * Express's `trust proxy` setting supply the protocol and host.
 *
 * @example
 * app.get(
 *   '/connect',
 *   connectEndpoint({
 *     secret: process.env.CONNECT_SECRET!,
 *     publicUrl: 'https://community.example',
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
    // originalUrl: a router mounted with app.use rewrites req.url, but the service signed it all.
    // Joined as text, not resolved: a path such as `//host/x` must stay a path, and a URL that
    // does not parse is core's 400, not a throw.
    flow
      .handle(origin + req.originalUrl, req)
      .then((action) => {
        res.set('Cache-Control', 'no-store');
        if (action.kind === 'redirect') {
          // Not res.redirect: it re-encodes the URL, and the callback's signature covers its bytes.
          res.status(action.status).set('Location', action.location).end();
          return;
        }
        const page = renderConnectError(action, req.get('accept'));
        res.status(action.status).set('Content-Type', page.contentType).send(page.body);
      })
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
