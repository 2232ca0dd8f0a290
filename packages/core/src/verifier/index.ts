import type { DoorAnswer, DoorRequest } from '../adapter/door.js';
import { frontEnds } from '../adapter/front-ends.js';
import type { IdentificationMethod } from '../schemas/verification-constants.js';
import { readVerifierOptions } from './options.js';
import { decideClaim } from './pipeline.js';
import type { ClaimInput, QuestRoute, Verifier, VerifierOptions } from './types.js';

export { DEFAULT_MAX_BODY_BYTES, DEFAULT_TIMEOUT_MS } from './options.js';
export type * from './types.js';

const HEADERS = Object.freeze({ 'content-type': 'application/json; charset=utf-8' });

/**
 * Builds a verification endpoint that keeps the platform's contract for every input: it answers
 * only 200 or 400 with a JSON `{message}`, before the deadline, with the API key compared in
 * constant time. Options are checked here: a misconfiguration throws at start-up.
 *
 * @example
 * const verifier = createVerifier({
 *   apiKey: process.env.QUEST_API_KEY!,
 *   requires: ['email'],
 *   verify: async ({ accounts }) =>
 *     (await isSubscribed(accounts.email)) ? ok('Thanks for subscribing!') : fail('Subscribe first.'),
 * });
 * export default { fetch: verifier.fetch };
 */
export function createVerifier<const R extends IdentificationMethod = never>(
  options: VerifierOptions<R>,
): Verifier {
  const config = readVerifierOptions(options as VerifierOptions<IdentificationMethod>);
  // Every front-end decides through this one call.
  const decideRequest = (request: DoorRequest) => decideClaim(config, request);
  const handle = async (request: DoorRequest): Promise<DoorAnswer> => {
    const { status, body, close } = await decideRequest(request);
    return { status, headers: HEADERS, cookies: [], body: JSON.stringify(body), close };
  };
  return {
    handle,
    async decide(input: ClaimInput) {
      const { status, body, reason } = await decideRequest(requestFromInput(input));
      return { status, body, reason };
    },
    // Writing fails only when the client left: nobody is left to answer, the developer hears of it.
    ...frontEnds(handle, (error) => config.report(error, { reason: 'write_error' })),
  };
}

function requestFromInput(input: ClaimInput): DoorRequest {
  const { headers, body } = input;
  const header =
    headers instanceof Headers
      ? (name: string) => headers.get(name) ?? undefined
      : (name: string) => {
          const value = headers[name];
          return value === undefined || typeof value === 'string' ? value : value.join(', ');
        };
  return {
    method: input.method ?? 'POST',
    url: '/',
    header,
    body:
      body == null || typeof body === 'string' || body instanceof Uint8Array
        ? { kind: 'bytes', value: body ?? '' }
        : { kind: 'stream', stream: body },
    receivedAt: input.receivedAt,
  };
}

/**
 * Types one entry of `quests` so that its handler sees the accounts it requires as present.
 *
 * @example
 * createVerifier({
 *   apiKey: 'key',
 *   quests: {
 *     'quest-a': defineQuest({ requires: ['discord'], verify: ({ accounts }) => ok(accounts.discord.handle) }),
 *   },
 * });
 */
export function defineQuest<const R extends IdentificationMethod = never>(
  route: QuestRoute<R>,
): QuestRoute<R> {
  return route;
}
