import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHmacSha256, createHmacSha256Bytes, sha256, toHex } from './sha256.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const filled = (length: number, value: number) => new Uint8Array(length).fill(value);
const range = (from: number, to: number) =>
  Uint8Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('sha256: FIPS 180-4 / NIST vectors', () => {
  const vectors: [string, Uint8Array, string][] = [
    ['empty', bytes(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', bytes('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [
      '448 bits (padding spills into a second block)',
      bytes('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'),
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    ],
    [
      '896 bits',
      bytes(
        'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
      ),
      'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1',
    ],
    [
      'one million a',
      filled(1_000_000, 0x61),
      'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
    ],
  ];
  it.each(vectors)('%s', (_name, input, expected) => {
    expect(toHex(sha256(input))).toBe(expected);
  });
});

describe('HMAC-SHA256: RFC 4231 vectors', () => {
  const vectors: [string, Uint8Array, Uint8Array, string][] = [
    [
      'test case 1',
      filled(20, 0x0b),
      bytes('Hi There'),
      'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
    ],
    [
      'test case 2 (short key)',
      bytes('Jefe'),
      bytes('what do ya want for nothing?'),
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    ],
    [
      'test case 3',
      filled(20, 0xaa),
      filled(50, 0xdd),
      '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe',
    ],
    [
      'test case 4',
      range(0x01, 0x19),
      filled(50, 0xcd),
      '82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b',
    ],
    [
      'test case 6 (key longer than a block)',
      filled(131, 0xaa),
      bytes('Test Using Larger Than Block-Size Key - Hash Key First'),
      '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
    ],
    [
      'test case 7 (long key and long data)',
      filled(131, 0xaa),
      bytes(
        'This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.',
      ),
      '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
    ],
  ];
  it.each(vectors)('%s', (_name, key, data, expected) => {
    expect(toHex(createHmacSha256Bytes(key)(data))).toBe(expected);
  });

  it('keys the string form with the UTF-8 bytes of the secret (RFC 4231 case 2)', () => {
    expect(createHmacSha256('Jefe')('what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });
});

describe('agrees with node:crypto', () => {
  // Lengths around the block edges (55/56/63/64/65 bytes) are where padding bugs live.
  const edgeLengths = [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000];

  it('hashes every length near a block edge like createHash', () => {
    for (const length of edgeLengths) {
      const data = Uint8Array.from({ length }, (_, i) => (i * 31 + 7) & 0xff);
      expect(toHex(sha256(data)), `length ${length}`).toBe(
        createHash('sha256').update(data).digest('hex'),
      );
    }
  });

  it('uses keys of every length near the block size like createHmac', () => {
    for (const keyLength of [0, 1, 32, 63, 64, 65, 200]) {
      const key = 'k'.repeat(keyLength);
      const mac = createHmacSha256(key);
      for (const length of edgeLengths) {
        const message = 'm'.repeat(length);
        expect(mac(message), `key ${keyLength}, message ${length}`).toBe(
          createHmac('sha256', key).update(message).digest('hex'),
        );
      }
    }
  });

  it('matches createHmac for arbitrary secrets and messages, unicode included', () => {
    const text = (maxLength: number) =>
      fc.oneof(
        fc.string({ maxLength }),
        fc.string({ unit: 'binary', maxLength }),
        fc.string({ unit: 'grapheme', maxLength }),
      );
    fc.assert(
      fc.property(text(150), fc.array(text(300), { maxLength: 4 }), (secret, messages) => {
        const mac = createHmacSha256(secret);
        // One prepared function serves several messages: the precomputed pads must not drift.
        for (const message of messages) {
          expect(mac(message)).toBe(createHmac('sha256', secret).update(message).digest('hex'));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('matches createHmac over arbitrary bytes', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 200 }),
        fc.uint8Array({ maxLength: 400 }),
        (key, data) => {
          expect(toHex(createHmacSha256Bytes(key)(data))).toBe(
            createHmac('sha256', key).update(data).digest('hex'),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
