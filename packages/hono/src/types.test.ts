// Type tests: these mounts only compile if the handlers fit Hono's real types; `tsc --noEmit`
// (the package's typecheck) checks them, and the runtime part confirms the mounts answer.
import { ok } from '@questkit/core';
import { type Context, type Handler, Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { validator } from 'hono/validator';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { type ConnectEndpointOptions, connectEndpoint } from './connect.js';
import { type VerificationEndpointOptions, verificationEndpoint } from './verification.js';

interface AppEnv {
  Bindings: { QUEST_API_KEY: string };
  Variables: { user?: { id: string } };
}

const verify = () => ok('Claimed!');

describe('types against the real hono', () => {
  it('mounts verificationEndpoint on any Env, path, method helper and after a validator', async () => {
    const plain = new Hono();
    plain.post('/verify', verificationEndpoint({ apiKey: 'k', verify }));
    plain.all('/verify-all', verificationEndpoint({ apiKey: 'k', verify }));
    plain.on(['POST', 'PUT'], '/verify-on', verificationEndpoint({ apiKey: 'k', verify }));

    const typed = new Hono<AppEnv>().basePath('/api');
    typed.post('/verify/:questId', verificationEndpoint({ apiKey: ['k1', 'k2'], verify }));
    typed.post(
      '/validated',
      validator('json', (value) => value as { userId: string }),
      verificationEndpoint({ apiKey: 'k', verify }),
    );
    const sub = new Hono<AppEnv>();
    sub.all('/', verificationEndpoint({ apiKey: false, verify }));
    typed.route('/sub', sub);

    const response = await plain.request('/verify', { method: 'POST', body: '{}' });
    expect(response.status).toBe(400);
    expect((await typed.request('/api/sub', { method: 'GET' })).status).toBe(400);
  });

  it('returns a Hono Handler resolving to a Response', () => {
    const handler = verificationEndpoint({ apiKey: 'k', verify });
    expectTypeOf(handler).toExtend<Handler>();
    expectTypeOf(handler).returns.toEqualTypeOf<Promise<Response>>();
    expectTypeOf(connectEndpoint({ secret: 's', getIdentifier: () => 'id' })).toExtend<Handler>();
  });

  it('types the options as core does', () => {
    verificationEndpoint({
      apiKey: 'k',
      requires: ['email', 'discord'],
      verify: ({ accounts }) => {
        expectTypeOf(accounts.email).toEqualTypeOf<string>();
        expectTypeOf(accounts.discord).toEqualTypeOf<{ id: string; handle: string }>();
        return ok(accounts.email);
      },
    });
    expectTypeOf<VerificationEndpointOptions>().toHaveProperty('apiKey');
    // @ts-expect-error apiKey is required (false opts out explicitly)
    expect(() => verificationEndpoint({ verify })).toThrow(TypeError);
    // @ts-expect-error an unknown identification method
    expect(() => verificationEndpoint({ apiKey: 'k', requires: ['phone'], verify })).toThrow(
      TypeError,
    );
  });

  it('hands getIdentifier the Hono Context of the app', () => {
    const app = new Hono<AppEnv>();
    app.get(
      '/connect',
      connectEndpoint<AppEnv>({
        secret: 's',
        getIdentifier: (c) => {
          expectTypeOf(c).toEqualTypeOf<Context<AppEnv>>();
          return c.get('user')?.id ?? getCookie(c, 'sid');
        },
        loginUrl: (returnTo, c) => `/login?next=${encodeURIComponent(returnTo)}&h=${c.req.path}`,
        onLinked: ({ svcUserId, identifier, callback }, c) => {
          expectTypeOf(svcUserId).toBeString();
          expectTypeOf(identifier).toBeString();
          expectTypeOf(callback).toBeString();
          expectTypeOf(c.env.QUEST_API_KEY).toBeString();
        },
      }),
    );
    const plain = new Hono();
    plain.get('/connect', connectEndpoint({ secret: 's', getIdentifier: (c) => c.req.query('u') }));
    expectTypeOf<ConnectEndpointOptions<AppEnv>['getIdentifier']>()
      .parameter(0)
      .toEqualTypeOf<Context<AppEnv>>();
    // @ts-expect-error getIdentifier is required
    expect(() => connectEndpoint({ secret: 's' })).toThrow(TypeError);
  });
});
