import { timingSafeEqual as nodeTimingSafeEqual } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkApiKey } from './api-key.js';
import { matchSecret, readSecrets, timingSafeEqual } from './secrets.js';

const prepareApiKeys = (keys: string | readonly string[]) =>
  readSecrets(keys, '[@questkit/core] apiKey');

describe('timingSafeEqual', () => {
  it('agrees with node:crypto on equal-length inputs and with === on any strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(timingSafeEqual(a, b)).toBe(a === b);
        expect(timingSafeEqual(a, a)).toBe(true);
        const [x, y] = [Buffer.from(a), Buffer.from(b)];
        if (x.length === y.length) expect(timingSafeEqual(a, b)).toBe(nodeTimingSafeEqual(x, y));
      }),
      { numRuns: 500 },
    );
  });

  it('tells apart a prefix, a longer string and the empty string', () => {
    expect(timingSafeEqual('secret', 'secre')).toBe(false);
    expect(timingSafeEqual('secret', 'secret!')).toBe(false);
    expect(timingSafeEqual('', 'secret')).toBe(false);
    expect(timingSafeEqual('', '')).toBe(true);
    expect(timingSafeEqual('é', 'e\u0301')).toBe(false);
  });
});

describe('checkApiKey', () => {
  it('matches the one key, any key of a rotation list, and nothing else', () => {
    expect(checkApiKey('k1', 'k1')).toBe(true);
    expect(checkApiKey('k2', ['k1', 'k2', 'k3'])).toBe(true);
    expect(checkApiKey('k4', ['k1', 'k2', 'k3'])).toBe(false);
    expect(checkApiKey('K1', 'k1')).toBe(false);
  });

  it('never matches a missing header, even against odd keys', () => {
    expect(checkApiKey(null, 'k')).toBe(false);
    expect(checkApiKey(undefined, ['k'])).toBe(false);
    expect(matchSecret(null, prepareApiKeys('null'))).toBe(false);
    // Not even an empty secret, which readSecrets refuses before any list reaches matchSecret.
    expect(matchSecret(undefined, [''])).toBe(false);
    expect(matchSecret(null, ['k', ''])).toBe(false);
  });

  it('throws a TypeError for no key or an empty key, naming no key', () => {
    expect(() => checkApiKey('x', '')).toThrow(TypeError);
    // The message names the option and the package, so a developer knows which setting is empty.
    expect(() => checkApiKey('x', '')).toThrow(/^\[@questkit\/core\] apiKey is required/);
    expect(() => checkApiKey('x', [])).toThrow(/non-empty/);
    expect(() => prepareApiKeys(['good-key', ''])).toThrow(/apiKey\[1\]/);
    expect(() => prepareApiKeys(['good-key', ''])).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('good-key') }),
    );
  });

  it('refuses a rotation list with an entry that is not a string, naming its place', () => {
    // Each of these has no string length of 0 to catch it: only the type check refuses it.
    for (const entry of [42, null, undefined, true, { length: 3 }, ['k']]) {
      expect(
        () => readSecrets(['good-key', entry], '[@questkit/core] apiKey'),
        String(entry),
      ).toThrow(/^\[@questkit\/core\] apiKey\[1\] must be a non-empty string$/);
    }
  });

  it('compares every key of a rotation list (no early exit)', () => {
    // A key list whose entries throw when read shows each one is visited even after a match.
    const visited: number[] = [];
    const keys = prepareApiKeys(['a', 'b', 'c']);
    const spy = new Proxy(keys as string[], {
      get(target, prop, receiver) {
        if (typeof prop === 'string' && /^\d+$/.test(prop)) visited.push(Number(prop));
        return Reflect.get(target, prop, receiver);
      },
    });
    expect(matchSecret('a', spy)).toBe(true);
    expect(visited).toEqual([0, 1, 2]);
  });
});
