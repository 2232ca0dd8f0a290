import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildConnectCallback } from './callback.js';
import { createConnectRedirect, readConnectRedirect } from './redirect.js';
import { verifySignedUrl } from './verify.js';

// Hundreds of Web Crypto calls: a bound for a loaded machine, not a verdict on speed.
const PROPERTY_TIMEOUT_MS = 60_000;

const SECRET = 'redirect-test-secret';
const REDIRECT = 'https://app.example.com/connect';
const CALLBACK = 'https://platform.example/connect/callback?session=s-1';
const hmacHex = (message: string, key = SECRET) =>
  createHmac('sha256', key).update(message).digest('hex');

/** Signs like the service would, with node:crypto and URLSearchParams only. */
function signExternally(base: string, params: [string, string][], key = SECRET): string {
  const url = new URL(base);
  url.search = new URLSearchParams(params).toString();
  const canonical = url.href;
  return `${canonical}${url.search ? '&' : '?'}signature=${hmacHex(canonical, key)}`;
}
const redirectWith = (callback: string, name = 'callback') =>
  signExternally(REDIRECT, [
    ['svcUserId', 'u-1'],
    [name, callback],
  ]);

describe('readConnectRedirect', () => {
  it('reads svcUserId and the callback', async () => {
    expect(await readConnectRedirect(redirectWith(CALLBACK), SECRET)).toEqual({
      ok: true,
      svcUserId: 'u-1',
      callback: CALLBACK,
      callbackParam: 'callback',
    });
  });

  it('reads callbackUrl when callback is absent, and prefers callback when both are there', async () => {
    expect(await readConnectRedirect(redirectWith(CALLBACK, 'callbackUrl'), SECRET)).toMatchObject({
      ok: true,
      callback: CALLBACK,
      callbackParam: 'callbackUrl',
    });
    const both = signExternally(REDIRECT, [
      ['svcUserId', 'u-1'],
      ['callbackUrl', 'https://other.example/cb'],
      ['callback', CALLBACK],
    ]);
    expect(await readConnectRedirect(both, SECRET)).toMatchObject({
      callback: CALLBACK,
      callbackParam: 'callback',
    });
  });

  it('accepts a URL object and a rotated secret list', async () => {
    expect((await readConnectRedirect(new URL(redirectWith(CALLBACK)), ['new', SECRET])).ok).toBe(
      true,
    );
  });

  it.each([
    ['no svcUserId', [['callback', CALLBACK]], 'missing_svc_user_id'],
    [
      'an empty svcUserId',
      [
        ['svcUserId', ''],
        ['callback', CALLBACK],
      ],
      'missing_svc_user_id',
    ],
    [
      'svcUserId twice',
      [
        ['svcUserId', 'a'],
        ['svcUserId', 'b'],
        ['callback', CALLBACK],
      ],
      'missing_svc_user_id',
    ],
    ['no callback', [['svcUserId', 'u-1']], 'missing_callback'],
    [
      'an empty callback',
      [
        ['svcUserId', 'u-1'],
        ['callback', ''],
      ],
      'missing_callback',
    ],
    [
      'an empty callbackUrl',
      [
        ['svcUserId', 'u-1'],
        ['callbackUrl', ''],
      ],
      'missing_callback',
    ],
    [
      'callback twice',
      [
        ['svcUserId', 'u-1'],
        ['callback', CALLBACK],
        ['callback', 'https://evil.example/'],
      ],
      'invalid_callback',
    ],
  ] as [string, [string, string][], string][])('rejects %s', async (_name, params, reason) => {
    expect(await readConnectRedirect(signExternally(REDIRECT, params), SECRET)).toEqual({
      ok: false,
      reason,
    });
  });

  it('checks the signature before anything else', async () => {
    const unsigned = `${REDIRECT}?svcUserId=u-1&callback=javascript%3Aalert(1)`;
    expect(await readConnectRedirect(unsigned, SECRET)).toEqual({
      ok: false,
      reason: 'missing_signature',
    });
    expect(await readConnectRedirect('not a url', SECRET)).toEqual({
      ok: false,
      reason: 'invalid_url',
    });
  });

  it(
    'never throws on arbitrary input',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.string({ unit: 'binary', maxLength: 200 }),
            fc.webUrl({ withQueryParameters: true }),
          ),
          async (input) => {
            expect((await readConnectRedirect(input, SECRET)).ok).toBe(false);
          },
        ),
        { numRuns: 200 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});

describe('open-redirect attempts', () => {
  it('rejects a callback swapped after signing', async () => {
    const signed = new URL(redirectWith(CALLBACK));
    signed.searchParams.set('callback', 'https://evil.example/steal');
    expect(await readConnectRedirect(signed, SECRET)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    // ... or added under the other name, or moved into callbackUrl.
    const added = new URL(redirectWith(CALLBACK, 'callbackUrl'));
    added.searchParams.append('callback', 'https://evil.example/steal');
    expect(await readConnectRedirect(added, SECRET)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it.each([
    'https://platform.example.evil.example/connect/callback?session=s-1',
    'https://evil.example/connect/callback?session=s-1',
    'https://platform.example:444/connect/callback?session=s-1',
    'http://platform.example/connect/callback?session=s-1',
  ])('rejects a callback whose host was changed after signing: %s', async (forged) => {
    const signed = new URL(redirectWith(CALLBACK));
    signed.searchParams.set('callback', forged);
    expect(await readConnectRedirect(signed, SECRET)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it.each([
    'javascript:alert(document.cookie)',
    'JavaScript://platform.example/%0aalert(1)',
    'data:text/html,<script>alert(1)</script>',
    '//evil.example/steal',
    '/connect/callback',
    'connect/callback',
    'ftp://platform.example/cb',
    'https:evil.example',
    'https:/evil.example',
    'https:\\\\evil.example',
    'https://evil.example\\@platform.example/',
    'https://user:pass@platform.example/cb',
    'https://platform.example@evil.example/',
    'https://@evil.example/',
    ' https://platform.example/cb',
    '\thttps://platform.example/cb',
    'https://platform.exa\nmple/cb',
    'https://',
    'https%3A%2F%2Fevil.example%2Fsteal',
  ])('rejects a correctly signed callback %j', async (callback) => {
    for (const name of ['callback', 'callbackUrl']) {
      expect(await readConnectRedirect(redirectWith(callback, name), SECRET)).toEqual({
        ok: false,
        reason: 'invalid_callback',
      });
    }
  });

  it('reads double-encoded parameters once, never twice', async () => {
    // The service encoded the callback twice: it decodes to text, not to a URL.
    const doubled = `${REDIRECT}?svcUserId=u-1&callback=https%253A%252F%252Fevil.example%252Fsteal`;
    expect(await readConnectRedirect(`${doubled}&signature=${hmacHex(doubled)}`, SECRET)).toEqual({
      ok: false,
      reason: 'invalid_callback',
    });
    // An encoded `=` makes one parameter named "callback=https://..." with no value.
    const encodedName = `${REDIRECT}?svcUserId=u-1&callback%3Dhttps%3A%2F%2Fevil.example`;
    expect(
      await readConnectRedirect(`${encodedName}&signature=${hmacHex(encodedName)}`, SECRET),
    ).toEqual({
      ok: false,
      reason: 'missing_callback',
    });
    // Re-encoding a signed callback changes what it means, so the signature no longer fits.
    const signed = redirectWith(CALLBACK);
    const reEncoded = signed.replace('callback=https%3A%2F%2F', 'callback=https%253A%252F%252F');
    expect(reEncoded).not.toBe(signed);
    expect(await readConnectRedirect(reEncoded, SECRET)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    // A signature smuggled in encoded form still counts as a second signature.
    const smuggled = `${signed}&sig%6Eature=${'0'.repeat(64)}`;
    expect(await readConnectRedirect(smuggled, SECRET)).toEqual({
      ok: false,
      reason: 'duplicate_signature',
    });
  });

  describe('allowedCallbackOrigins', () => {
    const options = {
      allowedCallbackOrigins: ['https://platform.example', 'http://localhost:4010/'],
    };

    it('accepts callbacks on an allowed origin, whatever the path and case of scheme and host', async () => {
      for (const callback of [
        CALLBACK,
        'HTTPS://Platform.Example/other/path?x=1#y',
        'https://platform.example:443/cb',
        'http://localhost:4010/connect/done',
      ]) {
        expect(
          await readConnectRedirect(redirectWith(callback), SECRET, options),
          callback,
        ).toMatchObject({
          ok: true,
          callback,
        });
      }
    });

    it.each([
      'https://evil.example/cb',
      'https://platform.example.evil.example/cb',
      'https://evil.example/https://platform.example/',
      'https://platform.example:8443/cb',
      'http://platform.example/cb',
      'https://localhost:4010/cb',
      'http://localhost:3001/cb',
    ])('rejects %s', async (callback) => {
      expect(await readConnectRedirect(redirectWith(callback), SECRET, options)).toEqual({
        ok: false,
        reason: 'callback_not_allowed',
      });
    });

    it('allows nothing when the list is empty', async () => {
      expect(
        await readConnectRedirect(redirectWith(CALLBACK), SECRET, { allowedCallbackOrigins: [] }),
      ).toEqual({
        ok: false,
        reason: 'callback_not_allowed',
      });
    });

    it('throws a TypeError for an entry that is not an http(s) origin', () => {
      for (const bad of ['platform.example', '*.platform.example', 'javascript:alert(1)', '']) {
        expect(() =>
          readConnectRedirect(redirectWith(CALLBACK), SECRET, { allowedCallbackOrigins: [bad] }),
        ).toThrow(/\[@questkit\/core\] allowedCallbackOrigins\[0\]/);
      }
    });
  });
});

describe('buildConnectCallback', () => {
  it('appends identifier and signs the result', async () => {
    const expected = 'https://platform.example/connect/callback?session=s-1&identifier=member+7';
    expect(await buildConnectCallback(CALLBACK, 'member 7', SECRET)).toBe(
      `${expected}&signature=${hmacHex(expected)}`,
    );
  });

  it('replaces an identifier and a signature already in the callback, and drops the fragment', async () => {
    const expected = 'https://platform.example/cb?identifier=member-7&session=1';
    expect(
      await buildConnectCallback(
        'https://platform.example/cb?identifier=forged&session=1&identifier=again&signature=abc#frag',
        'member-7',
        SECRET,
      ),
    ).toBe(`${expected}&signature=${hmacHex(expected)}`);
  });

  it('gives a URL the service verifies, with the identifier in it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
        async (identifier) => {
          const result = await verifySignedUrl(
            await buildConnectCallback(CALLBACK, identifier, SECRET),
            SECRET,
          );
          expect(result.ok && result.params.get('identifier')).toBe(identifier);
          expect(result.ok && result.params.get('session')).toBe('s-1');
        },
      ),
      { numRuns: 200 },
    );
  });

  it('throws a TypeError on programmer errors', () => {
    expect(() => buildConnectCallback('not a url', 'm', SECRET)).toThrow(
      /\[@questkit\/core\].*callback/,
    );
    expect(() => buildConnectCallback('javascript:alert(1)', 'm', SECRET)).toThrow(TypeError);
    expect(() => buildConnectCallback('//evil.example/', 'm', SECRET)).toThrow(TypeError);
    expect(() => buildConnectCallback(CALLBACK, '', SECRET)).toThrow(
      /\[@questkit\/core\].*identifier/,
    );
    expect(() => buildConnectCallback(CALLBACK, 'm', '')).toThrow(/\[@questkit\/core\].*secret/);
  });
});

describe('createConnectRedirect', () => {
  it('sets svcUserId and callback, keeps other parameters, and signs', async () => {
    const expected =
      'https://app.example.com/connect?ref=quest&svcUserId=u+1&callback=https%3A%2F%2Fplatform.example%2Fconnect%2Fcallback%3Fsession%3Ds-1';
    expect(
      await createConnectRedirect({
        redirectUrl: 'https://app.example.com/connect?ref=quest&svcUserId=old#top',
        svcUserId: 'u 1',
        callback: CALLBACK,
        secret: SECRET,
      }),
    ).toBe(`${expected}&signature=${hmacHex(expected)}`);
  });

  it('uses callbackUrl when asked', async () => {
    const url = await createConnectRedirect({
      redirectUrl: REDIRECT,
      svcUserId: 'u-1',
      callback: CALLBACK,
      secret: SECRET,
      callbackParam: 'callbackUrl',
    });
    expect(new URL(url).searchParams.get('callbackUrl')).toBe(CALLBACK);
    expect(new URL(url).searchParams.has('callback')).toBe(false);
  });

  it('round-trips through readConnectRedirect for arbitrary ids and callbacks', async () => {
    const callback = fc
      .tuple(
        fc.domain(),
        fc.array(fc.tuple(fc.string(), fc.string({ unit: 'grapheme' })), { maxLength: 4 }),
      )
      .map(([host, params]) => {
        const url = new URL(`https://${host}/cb`);
        url.search = new URLSearchParams(params).toString();
        return url.href;
      });
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
        callback,
        fc.constantFrom('callback', 'callbackUrl') as fc.Arbitrary<'callback' | 'callbackUrl'>,
        async (svcUserId, cb, callbackParam) => {
          const url = await createConnectRedirect({
            redirectUrl: REDIRECT,
            svcUserId,
            callback: cb,
            secret: SECRET,
            callbackParam,
          });
          expect(await readConnectRedirect(url, SECRET)).toEqual({
            ok: true,
            svcUserId,
            callback: cb,
            callbackParam,
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('throws a TypeError on programmer errors, without printing the secret', () => {
    const base = { redirectUrl: REDIRECT, svcUserId: 'u-1', callback: CALLBACK, secret: SECRET };
    expect(() => createConnectRedirect({ ...base, redirectUrl: '/connect' })).toThrow(
      /redirectUrl/,
    );
    expect(() => createConnectRedirect({ ...base, svcUserId: '' })).toThrow(/svcUserId/);
    expect(() => createConnectRedirect({ ...base, callback: 'javascript:alert(1)' })).toThrow(
      /callback/,
    );
    expect(() =>
      createConnectRedirect({ ...base, callbackParam: 'cb' as unknown as 'callback' }),
    ).toThrow(/callbackParam/);
    expect(() => createConnectRedirect({ ...base, secret: '' })).toThrow(TypeError);
  });
});

describe('the whole flow', () => {
  it('service redirect -> community answer -> service check', async () => {
    const location = await createConnectRedirect({
      redirectUrl: REDIRECT,
      svcUserId: 'svc-user-9',
      callback: 'https://platform.example/connect/callback?session=abc',
      secret: SECRET,
    });
    const redirect = await readConnectRedirect(location, SECRET, {
      allowedCallbackOrigins: ['https://platform.example'],
    });
    if (!redirect.ok) throw new Error(`redirect rejected: ${redirect.reason}`);
    const answer = await buildConnectCallback(redirect.callback, 'member-42', SECRET);
    const checked = await verifySignedUrl(answer, SECRET);
    expect(checked.ok && checked.params.get('identifier')).toBe('member-42');
    expect(checked.ok && checked.params.get('session')).toBe('abc');
    expect((await verifySignedUrl(answer.replace('member-42', 'member-43'), SECRET)).ok).toBe(
      false,
    );
  });
});
