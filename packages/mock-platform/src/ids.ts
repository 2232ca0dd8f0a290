// Identifiers and secrets made at run time. Web Crypto's random source only (no `node:`), so the
// platform itself runs on any runtime with fetch.

/** A random RFC 9562 version 4 uuid. */
export function randomId(): string {
  return crypto.randomUUID();
}

/** `bytes` random bytes as lower-case hex. */
export function randomHex(bytes: number): string {
  const buffer = crypto.getRandomValues(new Uint8Array(bytes));
  let hex = '';
  for (const byte of buffer) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** A webhook secret, in the `whsec_` style of common webhook providers. */
export function randomWebhookSecret(): string {
  return `whsec_${randomHex(24)}`;
}
