import { type HmacKey, importHmacKey } from '../hmac.js';
import { readSecrets } from '../secrets.js';

/** How configuration errors name the connect secret option. */
export const CONNECT_SECRET_OPTION = '[@questkit/core] connect secret';

/**
 * Reads the connect secret option (one, or a list during a rotation: the first signs) and
 * imports one HMAC key per secret. The connect flow calls it once at start-up; the one-shot
 * helpers (`signUrl`, `verifySignedUrl`, ...) once per call.
 */
export function connectKeys(secret: unknown, option = CONNECT_SECRET_OPTION): readonly HmacKey[] {
  return readSecrets(secret, option).map(importHmacKey);
}
