/**
 * Compares two byte strings in time that depends only on their lengths, never on where they
 * differ. No Web Crypto: on Node 20 each `crypto.subtle` call costs about 50 µs, which would
 * halve an endpoint's throughput; this XOR loop costs nanoseconds.
 */
export function timingSafeEqualBytes(a: Uint8Array, b: Uint8Array): boolean {
  // Walk the longer length so a length mismatch takes as long as a content mismatch.
  const length = Math.max(a.length, b.length);
  let diff = a.length ^ b.length;
  for (let i = 0; i < length; i++) {
    diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  }
  return diff === 0;
}

/**
 * Compares two strings in time that depends only on their lengths. It walks UTF-16 code units
 * instead of UTF-8 bytes: the same verdict for equal strings (and stricter for lone surrogates,
 * which UTF-8 would fold into one replacement character), without encoding on every request.
 */
export function timingSafeEqual(a: string, b: string): boolean {
  const length = Math.max(a.length, b.length);
  let diff = a.length ^ b.length;
  // Past a string's end charCodeAt is NaN, which XOR reads as 0: no branch on the length.
  for (let i = 0; i < length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Checks the accepted keys once, for {@link matchApiKey} on every request.
 * Throws a TypeError when there is no key or a key is empty: that is a configuration error,
 * and it names no key.
 */
export function prepareApiKeys(expected: string | readonly string[]): readonly string[] {
  const keys = typeof expected === 'string' ? [expected] : expected;
  if (!Array.isArray(keys) || keys.length === 0) {
    throw new TypeError('[@questkit/core] apiKey must be a non-empty string or a non-empty list');
  }
  return keys.map((key, index) => {
    if (typeof key !== 'string' || key.length === 0) {
      throw new TypeError(`[@questkit/core] apiKey[${index}] must be a non-empty string`);
    }
    return key;
  });
}

/**
 * True when `received` equals one of the prepared keys. Every key is compared, with no early
 * exit, so the time says nothing about which key matched or how much of it.
 */
export function matchApiKey(received: string | null | undefined, keys: readonly string[]): boolean {
  const value = received ?? '';
  let matched = 0;
  for (const key of keys) matched |= timingSafeEqual(value, key) ? 1 : 0;
  return received != null && matched === 1;
}

/**
 * Checks the `X-Api-Key` header value against the configured key, or against several keys at
 * once during a rotation. Constant time; a missing header never matches.
 *
 * @example
 * checkApiKey(request.headers.get('x-api-key'), [process.env.KEY_NEW!, process.env.KEY_OLD!]);
 */
export function checkApiKey(
  received: string | null | undefined,
  expected: string | readonly string[],
): boolean {
  return matchApiKey(received, prepareApiKeys(expected));
}
