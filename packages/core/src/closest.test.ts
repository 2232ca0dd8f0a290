import { describe, expect, it } from 'vitest';
import { closest } from './closest.js';

const FLAGS = ['api-key', 'quest-id', 'timeout-ms', 'json', 'junit', 'expect-pass'];

describe('closest', () => {
  it('finds the flag a user meant, whatever the case or dashes', () => {
    expect(closest('apikey', FLAGS)).toBe('api-key');
    expect(closest('API-KEY', FLAGS)).toBe('api-key');
    expect(closest('questid', FLAGS)).toBe('quest-id');
    expect(closest('timout-ms', FLAGS)).toBe('timeout-ms');
    expect(closest('jsno', FLAGS)).toBe('json');
  });

  it('suggests nothing for a name far from every known one', () => {
    expect(closest('port', FLAGS)).toBeUndefined();
    expect(closest('x', FLAGS)).toBeUndefined();
    expect(closest('anything', [])).toBeUndefined();
  });

  it('finds a mistyped command', () => {
    expect(closest('chekc', ['check', 'mock'])).toBe('check');
    expect(closest('mok', ['check', 'mock'])).toBe('mock');
  });

  it('counts a swap of two neighbours as one edit', () => {
    // Two substitutions apart: too far for a four-letter name, unless the swap is one edit.
    expect(closest('uir', ['uri', 'url'])).toBe('uri');
    expect(closest('nmae', ['name'])).toBe('name');
  });

  it('finds a misspelt field or route segment of the mock', () => {
    expect(closest('valeu', ['value', 'type'])).toBe('value');
    expect(closest('referalcode', ['referral-code', 'users'])).toBe('referral-code');
  });

  it('suggests nothing for a name longer than any name is, however close', () => {
    const long = 'a'.repeat(65);
    expect(closest(long, [`${long}b`])).toBeUndefined();
    expect(closest('a'.repeat(64), ['a'.repeat(65)])).toBe('a'.repeat(65));
  });
});
