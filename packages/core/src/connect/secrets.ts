import { createHmacSha256 } from './sha256.js';

/**
 * Checks the connect secret(s) and returns one HMAC function per secret. A missing or empty
 * secret is a configuration error: it throws a TypeError that names the option, never its value.
 */
export function prepareSecrets(
  secret: string | readonly string[],
  option = 'secret',
): ((message: string) => string)[] {
  const secrets: readonly unknown[] = typeof secret === 'string' ? [secret] : secret;
  if (!Array.isArray(secrets) || secrets.length === 0) {
    throw new TypeError(
      `[@questkit/core] connect ${option} must be a non-empty string or a non-empty list of them`,
    );
  }
  return secrets.map((value, index) => {
    if (typeof value !== 'string' || value.length === 0) {
      const name = typeof secret === 'string' ? option : `${option}[${index}]`;
      throw new TypeError(`[@questkit/core] connect ${name} must be a non-empty string`);
    }
    return createHmacSha256(value);
  });
}
