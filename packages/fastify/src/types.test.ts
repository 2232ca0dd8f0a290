// Compiles only if the plugins fit Fastify's real types (`tsc --noEmit` covers this file); the
// runtime part checks that the same registrations boot.
import { defineQuest, fail, ok } from '@questkit/core';
import Fastify, {
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyRequest,
  type RawServerBase,
} from 'fastify';
import { describe, expectTypeOf, it } from 'vitest';
import { type ConnectEndpointOptions, connectEndpoint } from './connect.js';
import { type VerificationEndpointOptions, verificationEndpoint } from './verification.js';

describe('types', () => {
  it('are Fastify async plugins with their options', () => {
    expectTypeOf(verificationEndpoint).toEqualTypeOf<
      FastifyPluginAsync<VerificationEndpointOptions>
    >();
    expectTypeOf(connectEndpoint).toEqualTypeOf<FastifyPluginAsync<ConnectEndpointOptions>>();
    expectTypeOf<ConnectEndpointOptions['getIdentifier']>()
      .parameter(0)
      .toEqualTypeOf<FastifyRequest>();
  });

  it('register with the options of core and a path', async () => {
    const app = Fastify();
    app.register(verificationEndpoint, {
      path: '/verify',
      apiKey: 'key',
      requires: ['email'],
      verify: ({ accounts, signal }) => {
        expectTypeOf(signal).toEqualTypeOf<AbortSignal>();
        // Fastify cannot infer `requires` into the handler: accounts stay optional here...
        return accounts.email ? ok() : fail('Link your email.');
      },
    });
    app.register(verificationEndpoint, {
      prefix: '/hooks',
      path: '/verify',
      apiKey: ['new-key', 'old-key'],
      timeoutMs: 5000,
      quests: {
        // ...while defineQuest types them per quest.
        'quest-a': defineQuest({
          requires: ['discord'],
          verify: ({ accounts }) => ok(accounts.discord.handle),
        }),
        'quest-b': () => fail('Not yet.'),
      },
    });
    app.register(connectEndpoint, {
      path: '/connect',
      secret: 'secret',
      publicUrl: 'https://app.example.com',
      getIdentifier: (request) => request.headers['x-user'] as string | undefined,
      loginUrl: (returnTo) => `/login?next=${encodeURIComponent(returnTo)}`,
      onLinked: async ({ svcUserId, identifier, callback }, request) => {
        expectTypeOf(request).toEqualTypeOf<FastifyRequest>();
        expectTypeOf([svcUserId, identifier, callback]).toEqualTypeOf<string[]>();
      },
    });
    await app.ready();
    await app.close();
  });

  it('reject registrations without a path or with wrong options', () => {
    // Type-only: never called.
    const wrong = (app: FastifyInstance) => {
      // @ts-expect-error path is required
      app.register(verificationEndpoint, { apiKey: 'key', verify: () => ok() });
      // @ts-expect-error verify must return ok() or fail()
      app.register(verificationEndpoint, { path: '/v', apiKey: 'key', verify: () => 'yes' });
      // @ts-expect-error unknown identification method
      app.register(verificationEndpoint, { path: '/v', apiKey: 'k', requires: ['phone'] });
      // @ts-expect-error getIdentifier is required
      app.register(connectEndpoint, { path: '/connect', secret: 'secret' });
    };
    expectTypeOf(wrong).toBeFunction();
  });

  it('register on any server flavour Fastify types', () => {
    const onAnyServer = <S extends RawServerBase>(app: FastifyInstance<S>) => {
      app.register(verificationEndpoint, { path: '/verify', apiKey: false, verify: () => ok() });
      app.register(connectEndpoint, { path: '/connect', secret: 's', getIdentifier: () => 'u' });
    };
    expectTypeOf(onAnyServer).toBeFunction();
  });
});
