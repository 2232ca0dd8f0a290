import { type ConnectFlowOptions, createConnectFlow, publicRequestUrl } from '@questkit/core';
import type { Context, Env, Handler, Input } from 'hono';
import { bridge } from './bridge.js';

/**
 * Options of {@link connectEndpoint}: core's connect-flow options, with the Hono `Context` as the
 * request that `getIdentifier`, `loginUrl` and `onLinked` receive.
 */
export type ConnectEndpointOptions<E extends Env = Env> = ConnectFlowOptions<Context<E>>;

/**
 * A Hono handler (GET and POST: mount it with `app.on(['GET', 'POST'], path, …)` or `app.all`)
 * for the community side of the identity-connect flow: verifies the signed redirect, sends
 * visitors to `loginUrl` (the flow resumes after login), shows a logged-in member a page naming
 * both accounts, and links only when the member confirms there (a POST bound to the session and
 * the browser); then `onLinked` and a redirect to the signed callback.
 *
 * The signature covers the public URL. Hono has no trust-proxy setting, so `publicUrl` fixes the
 * origin; without it the URL Hono sees is used, which on Node is built from the `Host` header:
 * set `publicUrl` behind any proxy or TLS terminator.
 *
 * Pass the app's Env (`connectEndpoint<AppEnv>(...)`) to type `c` in the callbacks: Hono's
 * overloaded routing methods cannot infer it.
 *
 * @example
 * type AppEnv = { Variables: { user?: { id: string } } };
 * const app = new Hono<AppEnv>();
 * app.on(
 *   ['GET', 'POST'],
 *   '/connect',
 *   connectEndpoint<AppEnv>({
 *     secret: process.env.CONNECT_SECRET!,
 *     publicUrl: 'https://community.example',
 *     getIdentifier: (c) => c.get('user')?.id,
 *     loginUrl: '/login',
 *     onLinked: ({ svcUserId, identifier }) => links.save(svcUserId, identifier),
 *   }),
 * );
 */
export function connectEndpoint<
  E extends Env = Env,
  P extends string = string,
  I extends Input = Input,
>(options: ConnectEndpointOptions<E>): Handler<E, P, I, Promise<Response>> {
  const flow = createConnectFlow(options);
  return bridge(flow, (c) => {
    const { pathname, search, href } = new URL(c.req.url);
    return flow.publicOrigin ? publicRequestUrl(pathname + search, flow.publicOrigin) : href;
  });
}
