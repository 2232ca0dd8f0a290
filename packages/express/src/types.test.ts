import { ok } from '@questkit/core';
import express, { type ErrorRequestHandler, type Request, type RequestHandler } from 'express';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type ConnectEndpointOptions,
  connectEndpoint,
  type VerificationEndpoint,
  type VerificationEndpointOptions,
  verificationEndpoint,
  verificationErrors,
} from './index.js';

// Most checks here are made by the compiler: `pnpm typecheck` compiles this file, with the
// package's source, once against Express 5's types and once against Express 4's
// (tsconfig.express4.json), so the calls below only compile if the handlers fit both.
describe('types', () => {
  const verify = verificationEndpoint({ apiKey: 'key', verify: () => ok() });
  const connect = connectEndpoint({ secret: 'secret', getIdentifier: (req) => req.get('x-user') });

  it('mount on Express in its own idiom', () => {
    const app = express();
    app.post('/verify', verify);
    app.all('/verify', verify);
    app.use('/verify', verificationErrors(verify));
    app.get('/connect', connect);
    express.Router().post('/verify', express.json(), verify);
    expectTypeOf(verify).toEqualTypeOf<[RequestHandler, ErrorRequestHandler]>();
    expectTypeOf(verificationErrors(verify)).toEqualTypeOf<ErrorRequestHandler>();
    expectTypeOf(connect).toEqualTypeOf<RequestHandler>();
  });

  it('type the accounts a handler requires', () => {
    verificationEndpoint({
      apiKey: ['old-key', 'new-key'],
      requires: ['email', 'discord'],
      verify: ({ accounts }) => {
        expectTypeOf(accounts.email).toEqualTypeOf<string>();
        expectTypeOf(accounts.discord.handle).toEqualTypeOf<string>();
        return ok();
      },
    });
    verificationEndpoint({
      apiKey: 'key',
      // @ts-expect-error: without `requires`, an account may be missing.
      verify: ({ accounts }) => ok(accounts.discord.handle),
    });
    expect(() =>
      // @ts-expect-error: not an identification method of the platform.
      verificationEndpoint({ apiKey: 'key', requires: ['phone'], verify: () => ok() }),
    ).toThrow(TypeError);
    expectTypeOf<VerificationEndpointOptions['timeoutMs']>().toEqualTypeOf<number | undefined>();
  });

  it('hand the Express request to the connect hooks', () => {
    expectTypeOf<Parameters<ConnectEndpointOptions['getIdentifier']>[0]>().toEqualTypeOf<Request>();
    connectEndpoint({
      secret: ['new-secret', 'old-secret'],
      getIdentifier: async (req) => req.get('cookie')?.length.toString(),
      loginUrl: (returnTo, req) => `${req.baseUrl}/login?next=${encodeURIComponent(returnTo)}`,
      onLinked: ({ svcUserId, identifier, callback }, req) => {
        expectTypeOf([svcUserId, identifier, callback]).toEqualTypeOf<string[]>();
        expectTypeOf(req).toEqualTypeOf<Request>();
      },
    });
    // @ts-expect-error: getIdentifier is required.
    expect(() => connectEndpoint({ secret: 'secret' })).toThrow(TypeError);
  });

  it('take only an endpoint in verificationErrors', () => {
    // @ts-expect-error: the options are not the endpoint.
    expectTypeOf(verificationErrors).toBeCallableWith({ apiKey: 'key' });
    expectTypeOf(verificationErrors).parameter(0).toEqualTypeOf<VerificationEndpoint>();
  });
});
