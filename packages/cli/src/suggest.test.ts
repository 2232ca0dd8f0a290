import { describe, expect, it } from 'vitest';
import { closest } from './suggest.js';

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
});
