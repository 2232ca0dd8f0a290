import { type HmacKey, prepareHmacKeys, readSecrets } from '../secrets.js';

/** How configuration errors name the connect secret option. */
export const CONNECT_SECRET_OPTION = '[@questkit/core] connect secret';

/**
 * Reads the connect secret option (one, or a list during a rotation: the first signs) and
 * prepares one HMAC key per secret. The connect flow calls it once at start-up; the one-shot
 * helpers (`signUrl`, `verifySignedUrl`, ...) once per call.
 */
export function connectKeys(secret: unknown): readonly HmacKey[] {
  return prepareHmacKeys(readSecrets(secret, CONNECT_SECRET_OPTION));
}
