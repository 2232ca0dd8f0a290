import { describe, expect, it } from 'vitest';
import { safeReturnTo } from './return-to.js';

const ORIGIN = 'https://community.example';

describe('safeReturnTo', () => {
  it('keeps a path and query of this app', () => {
    expect(safeReturnTo('/connect?state=abc.def', ORIGIN)).toBe('/connect?state=abc.def');
    expect(safeReturnTo('/', ORIGIN)).toBe('/');
    expect(safeReturnTo('/a/../b?x=%20', ORIGIN)).toBe('/b?x=%20');
  });

  it.each([
    ['//evil.example/phish'],
    ['/%09/evil.example/phish'],
    ['/\t/evil.example/phish'],
    ['/%2F/evil.example'],
    ['/\\evil.example'],
    ['/%5Cevil.example'],
    ['/x%0d%0aSet-Cookie:%20a=b'],
    ['/x\r\nLocation: https://evil.example'],
    ['https://evil.example/'],
    ['javascript:alert(1)'],
    ['evil.example'],
    ['/%E0%A4%A'],
    ['/..//evil.example'],
    ['/a/..//evil.example'],
    ['/.//evil.example'],
    ['/%2e%2e//evil.example'],
    [''],
    [undefined],
  ])('refuses %j, falling back to the home page', (value) => {
    const safe = safeReturnTo(value, ORIGIN);
    expect(safe).toBe('/');
    // Whatever comes back, a browser resolves it on this app's origin.
    expect(new URL(safe, ORIGIN).origin).toBe(ORIGIN);
  });
});
