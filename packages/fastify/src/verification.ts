import type { IncomingMessage } from 'node:http';
import { createVerifier, type IdentificationMethod, type VerifierOptions } from '@questkit/core';
import type { DoorBody } from '@questkit/core/adapter';
import type { FastifyError, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { doorRequest, writeAnswer } from './door.js';

/** Options of {@link verificationEndpoint}: core's verifier options plus the route path. */
export interface VerificationEndpointOptions extends Omit<VerifierOptions, 'requires'> {
  /** The route, e.g. `/verify` (under the `prefix` the plugin is registered with, if any). */
  path: string;
  /**
   * Accounts every claim must carry, else a 400 telling the member what to link. Fastify's
   * `register` cannot infer them into `verify`'s types: use `defineQuest` in `quests` for that.
   */
  requires?: readonly IdentificationMethod[];
}

// Core does not judge content types, so neither may Fastify: every body goes to core unread,
// and core checks the key before it reads a byte.
const passStream = (
  _request: FastifyRequest,
  payload: IncomingMessage,
  done: (error: null, body: IncomingMessage) => void,
) => done(null, payload);

/**
 * The verification endpoint as an encapsulated Fastify plugin: one route at `path` that answers
 * every method with 200 or 400 `{message}`. Its content-type parser and error handler stay in
 * the plugin's scope: the rest of the app keeps Fastify's own.
 *
 * @example
 * const app = Fastify();
 * app.register(verificationEndpoint, {
 *   path: '/verify',
 *   apiKey: process.env.QUEST_API_KEY!,
 *   verify: async ({ accounts }) =>
 *     (await isSubscribed(accounts.email)) ? ok('Thanks for subscribing!') : fail('Subscribe first.'),
 * });
 */
export const verificationEndpoint: FastifyPluginAsync<VerificationEndpointOptions> = async (
  app,
  options,
) => {
  const { path, ...verifierOptions } = options;
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw new TypeError('[@questkit/fastify] verificationEndpoint: path must start with "/"');
  }
  const verifier = createVerifier({
    ...(verifierOptions as VerifierOptions<IdentificationMethod>),
    // Internal errors go to Fastify's logger unless the app has its own hook.
    onError:
      verifierOptions.onError ??
      ((error, info) =>
        app.log.error({ err: error, ...info }, `@questkit/fastify: ${info.reason}`)),
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', passStream);

  // Errors Fastify raises before the handler: an unparseable content type (core reads the body
  // as any other), a body over Fastify's own limit, or one it could not read.
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const body: DoorBody =
      error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? { kind: 'stream', stream: request.raw }
        : { kind: 'failed', reason: error.statusCode === 413 ? 'too_large' : 'unreadable' };
    return writeAnswer(reply, await verifier.handle(doorRequest(request, reply, body), request));
  });

  app.all(path, async (request, reply) => {
    const body: DoorBody = {
      kind: 'stream',
      stream: (request.body as IncomingMessage | undefined) ?? request.raw,
    };
    return writeAnswer(reply, await verifier.handle(doorRequest(request, reply, body), request));
  });
};
