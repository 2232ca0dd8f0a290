import { randomHex } from './ids.js';

/** Members' referral codes, keyed with a secret of the platform. */
export interface ReferralCodes {
  /** The code of a member: the same for one id on every call, and unguessable without the secret. */
  code(userId: string): Promise<string>;
}

const MIN_SECRET_LENGTH = 16;

/**
 * Referral codes as HMAC-SHA256 of the member id (Web Crypto, key imported once), 14 characters
 * of base 36: nobody can compute a member's code from the public id without the secret.
 * Random secret by default; give the same one to keep codes across restarts.
 */
export function createReferralCodes(secret: string = randomHex(32)): ReferralCodes {
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new TypeError(
      `[@questkit/mock-platform] referralSecret must have at least ${MIN_SECRET_LENGTH} characters`,
    );
  }
  const encoder = new TextEncoder();
  let key: ReturnType<typeof crypto.subtle.importKey> | undefined;
  return {
    async code(userId) {
      key ??= crypto.subtle.importKey(
        'raw',
        encoder.encode(secret),
        { name: 'HMAC', hash: 'SHA-256' },
        false,
        ['sign'],
      );
      const mac = new DataView(await crypto.subtle.sign('HMAC', await key, encoder.encode(userId)));
      const part = (offset: number) => mac.getUint32(offset).toString(36).padStart(7, '0');
      return `${part(0)}${part(4)}`.toUpperCase();
    },
  };
}
