import { type ConnectFlowOptions, createConnectFlow } from '@questkit/core';
import type { Request, RequestHandler } from 'express';
import { bridge } from './bridge.js';

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
 * Express's `trust proxy` setting supply the protocol and host (`req.protocol`, `req.hostname`).
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
  // Joined as text, not resolved: a path such as `//host/x` must stay a path, and a URL that
  // does not parse is core's 400, not a throw.
  const url = (req: Request) =>
    `${flow.publicOrigin ?? `${req.protocol}://${requestHost(req)}`}${req.originalUrl}`;
  return bridge(flow, { url })[0];
}

/**
 * The host the client used, through Express's documented API: `req.hostname` follows the `trust
 * proxy` setting (`X-Forwarded-Host` only from a trusted proxy), but drops the port, which a local
 * app's signed URL keeps. The port comes back from the header the name was read from: `Host`
 * first, so an untrusted `X-Forwarded-Host` can never add one.
 */
function requestHost(req: Request): string {
  const { hostname } = req;
  if (!hostname) return '';
  const forwarded = req.get('x-forwarded-host')?.split(',', 1)[0]?.trim();
  for (const header of [req.get('host'), forwarded]) {
    if (header === hostname || header?.startsWith(`${hostname}:`)) return header!;
  }
  return hostname;
}
