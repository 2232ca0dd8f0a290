import {
  type ConnectFlowOptions,
  createConnectFlow,
  publicRequestUrl,
  renderConnectError,
} from '@questkit/core';
import type { Context, Env, Handler, Input } from 'hono';

/**
 * Options of {@link connectEndpoint}: core's connect-flow options, with the Hono `Context` as the
 * request that `getIdentifier`, `loginUrl` and `onLinked` receive.
 */
export type ConnectEndpointOptions<E extends Env = Env> = ConnectFlowOptions<Context<E>>;

/**
 * A Hono handler (GET) for the community side of the identity-connect flow: verifies the signed
 * redirect, asks `getIdentifier(c)` who is logged in (sending visitors to `loginUrl` with a signed
 * state token so the flow resumes after login), calls `onLinked`, and redirects the member to the
 * signed callback. A bad link answers 400 with an HTML page, or JSON when the client asks for it.
 *
 * The signature covers the public URL. Hono has no trust-proxy setting, so `publicUrl` fixes the
 * origin; without it the URL Hono sees is used, which on Node is built from the `Host` header:
 * set `publicUrl` behind any proxy or TLS terminator.
 *
 * Pass the app's Env (`connectEndpoint<AppEnv>(...)`) to type `c` in the callbacks: Hono's
 * overloaded `app.get` cannot infer it.
 *
 * @example
 * type AppEnv = { Variables: { user?: { id: string } } };
 * const app = new Hono<AppEnv>();
 * app.get(
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
  return async (c) => {
    const { pathname, search, href } = new URL(c.req.url);
    const url = flow.publicOrigin ? publicRequestUrl(pathname + search, flow.publicOrigin) : href;
    const action = await flow.handle(url, c);
    // c.body, not a bare Response, keeps headers earlier middleware set (a session cookie).
    if (action.kind === 'redirect') {
      return c.body(null, action.status, {
        location: action.location,
        'cache-control': 'no-store',
      });
    }
    const page = renderConnectError(action, c.req.header('accept'));
    return c.body(page.body, action.status, {
      'content-type': page.contentType,
      'cache-control': 'no-store',
    });
  };
}
