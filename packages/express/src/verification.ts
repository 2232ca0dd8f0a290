import { createVerifier, type IdentificationMethod, type VerifierOptions } from '@questkit/core';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { bridge } from './bridge.js';

/** Options of {@link verificationEndpoint}: exactly core's `createVerifier` options. */
export type VerificationEndpointOptions<R extends IdentificationMethod = never> =
  VerifierOptions<R>;

/**
 * The endpoint: its handler, then its own error handler. Express runs a route's error handlers
 * in the route's stack, so a body parser on the endpoint's route (`app.post('/verify',
 * express.json(), endpoint)`) that meets bad JSON or a large body is still answered in the
 * contract.
 */
export type VerificationEndpoint = [RequestHandler, ErrorRequestHandler];

const endpoints = new WeakSet<VerificationEndpoint>();

/**
 * Express handlers for the platform's verification call. Every answer is core's: 200 or 400
 * with a JSON `{message}`, before the deadline, whatever the request. Mount it with `app.all` (so
 * that other methods get the contract's 400 rather than Express's 404) and before any app-level
 * body parser: the endpoint reads the body itself, after the API key check.
 *
 * @example
 * app.all('/verify', verificationEndpoint({
 *   apiKey: process.env.QUEST_API_KEY!,
 *   requires: ['email'],
 *   verify: async ({ accounts }) =>
 *     (await isSubscribed(accounts.email)) ? ok('Thanks!') : fail('Subscribe first.'),
 * }));
 * app.use(express.json()); // after: the rest of the app
 */
export function verificationEndpoint<const R extends IdentificationMethod = never>(
  options: VerificationEndpointOptions<R>,
): VerificationEndpoint {
  const endpoint = bridge(createVerifier(options), {
    onAppError: (error) =>
      options.onError
        ? options.onError(error, { reason: 'handler_error' })
        : console.error('[@questkit/express] error before the verification endpoint:', error),
  });
  endpoints.add(endpoint);
  return endpoint;
}

/**
 * The endpoint's error handler, to mount at app level when an app-level body parser runs before
 * the endpoint (not recommended: see the README): such a parser's errors skip every route, and
 * Express's default handler would answer with an HTML page.
 *
 * @example
 * const verify = verificationEndpoint({ apiKey: process.env.QUEST_API_KEY!, verify: check });
 * app.use(express.json());
 * app.all('/verify', verify);
 * app.use('/verify', verificationErrors(verify));
 */
export function verificationErrors(endpoint: VerificationEndpoint): ErrorRequestHandler {
  if (!endpoints.has(endpoint)) {
    throw new TypeError(
      '[@questkit/express] verificationErrors expects the endpoint returned by verificationEndpoint()',
    );
  }
  return endpoint[1];
}
