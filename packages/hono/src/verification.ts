import { createVerifier, type IdentificationMethod, type VerifierOptions } from '@questkit/core';
import type { Env, Handler, Input } from 'hono';
import { bridge } from './bridge.js';

/** Options of {@link verificationEndpoint}: exactly core's `createVerifier` options. */
export type VerificationEndpointOptions<R extends IdentificationMethod = never> =
  VerifierOptions<R>;

/**
 * A Hono handler for the platform's verification call. Every answer is core's: 200 or 400 with
 * a JSON `{message}`, before the deadline, whatever the request. Mount it with `app.all` so that
 * other methods also get the contract's 400 rather than Hono's 404. It works whether or not an
 * earlier middleware read the body through Hono.
 *
 * @example
 * const app = new Hono();
 * app.all(
 *   '/verify',
 *   verificationEndpoint({
 *     apiKey: process.env.QUEST_API_KEY!,
 *     requires: ['email'],
 *     verify: async ({ accounts }) =>
 *       (await isSubscribed(accounts.email)) ? ok('Thanks!') : fail('Subscribe first.'),
 *   }),
 * );
 */
export function verificationEndpoint<
  const R extends IdentificationMethod = never,
  E extends Env = Env,
  P extends string = string,
  I extends Input = Input,
>(options: VerificationEndpointOptions<R>): Handler<E, P, I, Promise<Response>> {
  return bridge(createVerifier(options));
}
