import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_LENGTH, normalizeMessage } from './messages.js';
import { DEFAULT_FAIL_MESSAGE, DEFAULT_OK_MESSAGE, fail, isVerifyResult, ok } from './results.js';

describe('ok / fail', () => {
  it('build 200 and 400 results with their messages', () => {
    expect(ok('Done')).toMatchObject({ claimed: true, message: 'Done' });
    expect(fail('Not yet')).toMatchObject({ claimed: false, message: 'Not yet' });
    expect(isVerifyResult(ok())).toBe(true);
  });

  it('fall back to sensible defaults for empty messages', () => {
    expect(ok().message).toBe(DEFAULT_OK_MESSAGE);
    expect(ok('   ').message).toBe(DEFAULT_OK_MESSAGE);
    expect(fail('').message).toBe(DEFAULT_FAIL_MESSAGE);
    expect(fail(undefined as never).message).toBe(DEFAULT_FAIL_MESSAGE);
  });

  it('are not forgeable by a plain object', () => {
    expect(isVerifyResult({ claimed: true, message: 'x' })).toBe(false);
    expect(isVerifyResult(null)).toBe(false);
    expect(isVerifyResult('ok')).toBe(false);
  });
});

describe('normalizeMessage', () => {
  it('trims, folds white space and removes control and bidi characters', () => {
    expect(normalizeMessage('  a\n\tb\u0000c\u001b[31m ', 'x')).toBe('a b c [31m');
    expect(normalizeMessage('pay\u202eusd', 'x')).toBe('pay usd');
    expect(normalizeMessage('\u0085\u009f', 'fallback')).toBe('fallback');
  });

  it('bounds the length without splitting a surrogate pair', () => {
    const long = '😀'.repeat(MAX_MESSAGE_LENGTH + 10);
    const result = normalizeMessage(long, 'x');
    expect(Array.from(result)).toHaveLength(MAX_MESSAGE_LENGTH);
    expect(result.endsWith('…')).toBe(true);
    expect(result).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('leaves a normalized message as it is (the clean fast path agrees with the full path)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 700 }), (input) => {
        const once = normalizeMessage(input, 'fallback');
        expect(normalizeMessage(once, 'fallback')).toBe(once);
        expect(normalizeMessage(`${once}\u00a0`, 'fallback')).toBe(once);
        expect(normalizeMessage(` ${once}`, 'fallback')).toBe(once);
      }),
      { numRuns: 500 },
    );
    expect(normalizeMessage('a\u00a0b', 'x')).toBe('a b');
    expect(normalizeMessage('a  b', 'x')).toBe('a b');
    expect(normalizeMessage('plain message', 'x')).toBe('plain message');
  });

  it('always yields a non-empty, bounded, printable string', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'binary', maxLength: 2000 }), fc.anything()),
        (input) => {
          const result = normalizeMessage(input, 'fallback');
          expect(result.length).toBeGreaterThan(0);
          expect(Array.from(result).length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
          expect(result).toBe(result.trim());
          expect(result).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
        },
      ),
      { numRuns: 500 },
    );
  });
});
