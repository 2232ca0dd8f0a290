import type { IncomingMessage } from 'node:http';
import {
  type BodySource,
  bodyPending,
  createVerifier,
  type Decision,
  type IdentificationMethod,
  type VerifierOptions,
} from '@questkit/core';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';

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

// Core does not judge content types, so neither may Fastify: every body goes to core unread.
// A callback parser: a promise-returning one costs a trip through the microtask queue.
const passStream = (
  _request: FastifyRequest,
  payload: IncomingMessage,
  done: (error: null, body: IncomingMessage) => void,
) => done(null, payload);

/**
 * The verification endpoint as an encapsulated Fastify plugin: one route at `path` that answers
 * every method with 200 or 400 `{message}`. The body goes to core unread, so the API key is
 * checked before any byte of it is read, and bad JSON, any content type and an oversized or
 * stalled body are core's 400s. Its content-type parser and error handler stay in
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

  // The deadline counts from the request's arrival, however long the app's own hooks took.
  const receivedAt = (reply: FastifyReply) => Date.now() - reply.elapsedTime;

  const answer = (request: FastifyRequest, reply: FastifyReply, decision: Decision) => {
    // Core stops reading at the limit or the deadline and leaves the rest on the wire.
    if (bodyPending(request.raw)) reply.header('connection', 'close');
    reply.code(decision.status).headers(decision.headers);
    return JSON.stringify(decision.body);
  };

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', passStream);
  // The same parser under the platform's own type: Fastify caches the parser it finds for a
  // named type, but parses the content type anew on every request that falls to the catch-all.
  app.addContentTypeParser('application/json', passStream);

  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const base = {
      method: request.method,
      headers: request.headers,
      receivedAt: receivedAt(reply),
    };
    // An unparseable content type is Fastify's 415: core reads the body as it reads any other.
    // Any other error is a body core will not see: its own answer, after the key check.
    const decision =
      error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? await verifier.decide({ ...base, body: request.raw })
        : await verifier.decide({
            ...base,
            bodyError: error.statusCode === 413 ? 'body_too_large' : 'unreadable_body',
          });
    return answer(request, reply, decision);
  });

  // No hook of its own: nothing reads the body before the handler, and core checks the method,
  // the key and the declared length before it reads a byte. A callback handler: an async one
  // adds two promises a request. The input is a literal, not a spread: on Node 20 an object
  // spread here costs close to a microsecond.
  app.all(path, (request, reply) => {
    const input = {
      method: request.method,
      headers: request.headers,
      body: request.body as BodySource | undefined,
      receivedAt: receivedAt(reply),
    };
    verifier.decideThen(input, (decision) => reply.send(answer(request, reply, decision)));
  });
};
