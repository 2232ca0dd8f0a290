import { DEFAULT_MESSAGES } from '@questkit/core';

/**
 * Whether an endpoint's message reads as a refused API key: questkit's own refusals of a key, or
 * the words hand-written endpoints use for them (`API key`, `X-Api-Key`, `unauthorized`,
 * `forbidden`). The judge fails identical refusals that read so; the mock's dashboard marks a claim
 * answered so apart from a member who did not qualify.
 *
 * @example
 * readsAsKeyRefusal('Invalid API key.'); // true
 * readsAsKeyRefusal('Subscribe first.'); // false
 */
export function readsAsKeyRefusal(message: string | null | undefined): boolean {
  return (
    message === DEFAULT_MESSAGES.badKey ||
    message === DEFAULT_MESSAGES.missingKey ||
    /\b(api[ -]?key|x-api-key|unauthori[sz]ed|forbidden)\b/i.test(message ?? '')
  );
}
