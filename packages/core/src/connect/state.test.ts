import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { decodeJwt, decodeProtectedHeader, SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { createConnectState } from './state.js';

// Hundreds of Web Crypto calls: a bound for a loaded machine, not a verdict on speed.
const PROPERTY_TIMEOUT_MS = 60_000;

const SECRET = 'state-test-secret';
const STATE = { svcUserId: 'svc-user-1', callback: 'https://platform.example/cb?session=s 1' };
// The key as documented, derived here with node:crypto rather than the code under test.
const stateKey = (secret = SECRET) =>
  new Uint8Array(createHmac('sha256', secret).update('questkit-connect-state-v1').digest());
const now = () => Math.floor(Date.now() / 1000);

function forge(
  claims: Record<string, unknown>,
  {
    key = stateKey(),
    exp = now() + 60,
    aud = 'questkit-connect-state',
    iss = 'questkit-connect-state',
  } = {},
) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt(exp - 120)
    .setExpirationTime(exp)
    .setAudience(aud)
    .setIssuer(iss)
    .sign(key);
}

describe('createConnectState', () => {
  it('round-trips, across instances that share the secret', async () => {
    const token = await createConnectState({ secret: SECRET }).seal(STATE);
    expect(await createConnectState({ secret: SECRET }).open(token)).toEqual({
      ok: true,
      ...STATE,
    });
  });

  it('makes an HS256 JWT with exp = iat + ttl and the questkit audience and issuer', async () => {
    // The clock stands still in the middle of a second: a one-second token sealed just before a
    // second turns is expired by the time it is opened (CI saw it, once in a full run).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Math.floor(Date.now() / 1000) * 1000 + 500);
    let token: string;
    try {
      token = await createConnectState({ secret: SECRET, ttlSeconds: 1 }).seal(STATE);
      await expect(createConnectState({ secret: SECRET }).open(token)).resolves.toMatchObject({
        ok: true,
      });
    } finally {
      vi.useRealTimers();
    }
    expect(decodeProtectedHeader(token).alg).toBe('HS256');
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({
      ...STATE,
      aud: 'questkit-connect-state',
      iss: 'questkit-connect-state',
    });
    expect(claims.exp! - claims.iat!).toBe(1);
    const defaults = decodeJwt(await createConnectState({ secret: SECRET }).seal(STATE));
    expect(defaults.exp! - defaults.iat!).toBe(600);
  });

  it('derives its key from the secret with HMAC-SHA256 over a fixed label', async () => {
    const state = createConnectState({ secret: SECRET });
    expect(await state.open(await forge({ ...STATE }))).toEqual({ ok: true, ...STATE });
    // A token keyed with the bare secret is not accepted: the two keys differ.
    const bare = await forge({ ...STATE }, { key: new TextEncoder().encode(SECRET) });
    expect(await state.open(bare)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('reports an expired token as expired', async () => {
    const state = createConnectState({ secret: SECRET, ttlSeconds: 1 });
    expect(await state.open(await forge({ ...STATE }, { exp: now() - 5 }))).toEqual({
      ok: false,
      reason: 'expired',
    });
    // ... but only once its signature holds.
    const foreign = await forge({ ...STATE }, { exp: now() - 5, key: stateKey('other') });
    expect(await state.open(foreign)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('rejects tampering', async () => {
    const state = createConnectState({ secret: SECRET });
    const token = await state.seal(STATE);
    const [header, , signature] = token.split('.');
    const payload = Buffer.from(
      JSON.stringify({ ...decodeJwt(token), callback: 'https://evil.example/steal' }),
    ).toString('base64url');
    expect(await state.open(`${header}.${payload}.${signature}`)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    const flipped = signature!.startsWith('A')
      ? `B${signature!.slice(1)}`
      : `A${signature!.slice(1)}`;
    expect(await state.open(`${header}.${token.split('.')[1]}.${flipped}`)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('rejects a token of another secret', async () => {
    const token = await createConnectState({ secret: 'another-secret' }).seal(STATE);
    expect(await createConnectState({ secret: SECRET }).open(token)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it.each([
    ['another audience', forge({ ...STATE }, { aud: 'someone-else' })],
    ['another issuer', forge({ ...STATE }, { iss: 'someone-else' })],
    ['no svcUserId', forge({ callback: STATE.callback })],
    ['an empty svcUserId', forge({ svcUserId: '', callback: STATE.callback })],
    ['a number as svcUserId', forge({ svcUserId: 7, callback: STATE.callback })],
    ['a javascript: callback', forge({ svcUserId: 'u', callback: 'javascript:alert(1)' })],
    [
      'no exp',
      new SignJWT({ ...STATE })
        .setProtectedHeader({ alg: 'HS256' })
        .setAudience('questkit-connect-state')
        .setIssuer('questkit-connect-state')
        .sign(stateKey()),
    ],
    [
      'alg none',
      Promise.resolve(
        new UnsecuredJWT({ ...STATE })
          .setAudience('questkit-connect-state')
          .setIssuer('questkit-connect-state')
          .setExpirationTime(now() + 60)
          .encode(),
      ),
    ],
  ])('rejects a token with %s', async (_name, token) => {
    expect(await createConnectState({ secret: SECRET }).open(await token)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it(
    'never throws on garbage',
    async () => {
      const state = createConnectState({ secret: SECRET });
      for (const garbage of [
        '',
        '.',
        '..',
        'a.b.c',
        'e30.e30.',
        'x'.repeat(100_000),
        null,
        42,
        {},
      ]) {
        expect(await state.open(garbage as string)).toEqual({ ok: false, reason: 'invalid' });
      }
      await fc.assert(
        fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 300 }), async (garbage) => {
          expect(await state.open(garbage)).toEqual({ ok: false, reason: 'invalid' });
        }),
        { numRuns: 100 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it('throws a TypeError on programmer errors, without printing the secret', async () => {
    expect(() => createConnectState({ secret: '' })).toThrow(/\[@questkit\/core\].*secret/);
    for (const ttlSeconds of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createConnectState({ secret: SECRET, ttlSeconds })).toThrow(/ttlSeconds/);
    }
    const state = createConnectState({ secret: SECRET });
    await expect(state.seal({ svcUserId: '', callback: STATE.callback })).rejects.toThrow(
      /svcUserId/,
    );
    await expect(state.seal({ svcUserId: 'u', callback: '//evil.example' })).rejects.toThrow(
      TypeError,
    );
    await expect(state.seal({ svcUserId: 'u', callback: '//evil.example' })).rejects.not.toThrow(
      SECRET,
    );
  });
});
