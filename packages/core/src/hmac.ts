/**
 * HMAC-SHA256 and SHA-256 through Web Crypto (`crypto.subtle`), the same on every runtime core
 * supports: no hash of our own. A key is imported once, where its secret is read, and used for
 * every message after.
 */

const encoder = new TextEncoder();

/** An HMAC-SHA256 key in Web Crypto, imported once from a secret. */
export type HmacKey = Promise<CryptoKey>;

/** Imports `secret` (its UTF-8 bytes) as an HMAC-SHA256 key for signing and verifying. */
export function importHmacKey(secret: string): HmacKey {
  return crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
}

/** The HMAC-SHA256 of `message` under `key`, as raw bytes. */
export async function hmacBytes(key: HmacKey, message: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign('HMAC', await key, encoder.encode(message)));
}

/** The HMAC-SHA256 of `message` under `key`, as lower-case hex. */
export async function hmacHex(key: HmacKey, message: string): Promise<string> {
  return toHex(await hmacBytes(key, message));
}

/**
 * True when `hex` (64 hex digits, either case) is the HMAC-SHA256 of `message` under `key`.
 * Web Crypto compares in constant time; anything but 64 hex digits is false.
 */
export async function verifyHmacHex(key: HmacKey, hex: string, message: string): Promise<boolean> {
  const signature = fromHex(hex);
  if (signature === null || signature.byteLength !== 32) return false;
  return crypto.subtle.verify('HMAC', await key, signature, encoder.encode(message));
}

/** The SHA-256 of `text`'s UTF-8 bytes, as lower-case hex. */
export async function sha256Hex(text: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text))));
}

/** Lower-case hex of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

const HEX = /^(?:[0-9a-fA-F]{2})*$/;

/** The bytes of an even-length hex string, or null for any other character: nothing is skipped. */
function fromHex(hex: string): Uint8Array<ArrayBuffer> | null {
  if (!HEX.test(hex)) return null;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++)
    bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}
