import { createVerifier, type IdentificationMethod, type VerifierOptions } from '@questkit/core';
import { doorPlugin } from './bridge.js';

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
export const verificationEndpoint = doorPlugin<VerificationEndpointOptions>(
  'verificationEndpoint',
  'all',
  (options, app) => ({
    endpoint: createVerifier({
      ...(options as VerifierOptions<IdentificationMethod>),
      // Internal errors go to Fastify's logger unless the app has its own hook.
      onError:
        options.onError ??
        ((error, info) =>
          app.log.error({ err: error, ...info }, `@questkit/fastify: ${info.reason}`)),
    }),
  }),
);
