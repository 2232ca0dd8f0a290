/**
 * Secrets, in one place: the API key, the connect secret and the webhook secret are each one
 * secret or a list of them during a rotation, read once at start-up by {@link readSecrets} and
 * matched in constant time by {@link matchSecret}. Where they key an HMAC, see `hmac.ts`.
 */

/**
 * Compares two strings in time that depends only on their lengths, never on where they differ.
 * It walks UTF-16 code units instead of UTF-8 bytes: the same verdict for equal strings (and
 * stricter for lone surrogates, which UTF-8 would fold into one replacement character), without
 * encoding on every request.
 */
export function timingSafeEqual(a: string, b: string): boolean {
  const length = Math.max(a.length, b.length);
  let diff = a.length ^ b.length;
  // Past a string's end charCodeAt is NaN, which XOR reads as 0: no branch on the length.
  for (let i = 0; i < length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Reads a secret option: one non-empty string, or a non-empty list of them during a rotation.
 * Anything else is a configuration error: a TypeError that names the option (`name`, prefixed
 * with the package, e.g. `[@questkit/core] apiKey`), never a value.
 */
export function readSecrets(value: unknown, name: string): readonly string[] {
  const list: unknown = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.length === 0 || value === '') {
    throw new TypeError(
      `${name} is required: a non-empty string, or a non-empty list of them during a rotation`,
    );
  }
  return list.map((secret: unknown, index) => {
    if (typeof secret !== 'string' || secret.length === 0) {
      throw new TypeError(
        `${name}${typeof value === 'string' ? '' : `[${index}]`} must be a non-empty string`,
      );
    }
    return secret;
  });
}

/**
 * True when `received` equals one of `secrets`. Every secret is compared, with no early exit, so
 * the time says nothing about which one matched or how much of it. A missing value never matches.
 */
export function matchSecret(
  received: string | null | undefined,
  secrets: readonly string[],
): boolean {
  const value = received ?? '';
  const found = findWithoutEarlyExit(secrets, (secret) => timingSafeEqual(value, secret));
  return received != null && found !== undefined;
}

/**
 * The first of `candidates` that passes `test`, after testing every one of them: with no early
 * exit, the time tells nothing of which candidate matched, or whether one did.
 */
export function findWithoutEarlyExit<T>(
  candidates: Iterable<T>,
  test: (candidate: T) => boolean,
): T | undefined {
  let found: T | undefined;
  let matched = false;
  for (const candidate of candidates) {
    const passes = test(candidate);
    if (passes && !matched) found = candidate;
    matched ||= passes;
  }
  return found;
}
