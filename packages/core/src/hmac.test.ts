import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { importHmacKey, verifyHmacHex } from './hmac.js';

const SECRET = 'hmac-test-secret';
const key = importHmacKey(SECRET);
const hmac = (message: string) => createHmac('sha256', SECRET).update(message).digest('hex');

describe('verifyHmacHex', () => {
  it('accepts the HMAC-SHA256 of the message in either case', async () => {
    const hex = hmac('message');
    expect(await verifyHmacHex(key, hex, 'message')).toBe(true);
    expect(await verifyHmacHex(key, hex.toUpperCase(), 'message')).toBe(true);
    expect(await verifyHmacHex(key, hex, 'other message')).toBe(false);
  });

  it('refuses anything but 64 hex digits, without throwing', async () => {
    const hex = hmac('message');
    for (const signature of [
      '',
      hex.slice(0, 62),
      `${hex}00`,
      hex.slice(0, 63),
      'zz'.repeat(32),
      `${hex.slice(0, 62)}g0`,
    ]) {
      expect(await verifyHmacHex(key, signature, 'message'), signature).toBe(false);
    }
  });

  it('refuses a signature whose digits a lenient parser would still read as the right bytes', async () => {
    // parseInt(' 5', 16) is 5: a space for a leading zero must not pass, nor a digit and junk.
    // Its HMAC has bytes below 0x10.
    const hex = hmac('connect');
    const byte = [...Array(32).keys()].find((i) => hex[2 * i] === '0');
    expect(byte).toBeDefined();
    const at = 2 * byte!;
    for (const digits of [` ${hex[at + 1]}`, `${hex[at + 1]}z`]) {
      const signature = `${hex.slice(0, at)}${digits}${hex.slice(at + 2)}`;
      expect(signature).toHaveLength(64);
      expect(await verifyHmacHex(key, signature, 'connect'), signature).toBe(false);
    }
    expect(await verifyHmacHex(key, hex, 'connect')).toBe(true);
  });
});

describe('importHmacKey', () => {
  it('keeps the secret inside Web Crypto: the key cannot be exported', async () => {
    const imported = await importHmacKey(SECRET);
    expect(imported.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', imported)).rejects.toThrow();
  });
});
