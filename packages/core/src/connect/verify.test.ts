import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalize, rawSignedString } from './canonical.js';

/** The canonical form of `url` as a string, on a copy. */
function canonicalString(url: URL): string {
  const copy = new URL(url.href);
  canonicalize(copy);
  return copy.href;
}

import { signUrl } from './sign.js';
import { type SignedUrlFailure, verifySignedUrl } from './verify.js';

// Hundreds of Web Crypto calls: a bound for a loaded machine, not a verdict on speed.
const PROPERTY_TIMEOUT_MS = 60_000;

const SECRET = 'test-connect-secret';
const hmacHex = (message: string, key = SECRET) =>
  createHmac('sha256', key).update(message).digest('hex');
const FAILURES: readonly SignedUrlFailure[] = [
  'invalid_url',
  'missing_signature',
  'duplicate_signature',
  'malformed_signature',
  'bad_signature',
];

describe('canonical form: own vectors', () => {
  // Expected canonical strings written by hand from the WHATWG URL and urlencoded rules.
  const cases: [string, string][] = [
    [
      'https://App.Example.COM:443/a b/?q=a%20b&x=1+2#frag',
      'https://app.example.com/a%20b/?q=a+b&x=1+2',
    ],
    ['https://example.com/p?signature=abc&a=1&signature=def', 'https://example.com/p?a=1'],
    ['https://example.com/p?signature=only', 'https://example.com/p'],
    ['https://example.com/p?', 'https://example.com/p'],
    ['https://example.com/p#only-a-fragment', 'https://example.com/p'],
    ['https://example.com/p?a=%7E&b=~&c=%2a&d=%2F', 'https://example.com/p?a=%7E&b=%7E&c=*&d=%2F'],
    ['https://example.com/p?a=caf%C3%A9&b=café', 'https://example.com/p?a=caf%C3%A9&b=caf%C3%A9'],
    ['https://example.com/p?flag&=v&a=', 'https://example.com/p?flag=&=v&a='],
    ['http://example.com:80/?a=1', 'http://example.com/?a=1'],
    ['https://example.com', 'https://example.com/'],
    ['https://example.com/p?Signature=kept', 'https://example.com/p?Signature=kept'],
  ];

  it.each(cases)('%s', async (input, canonical) => {
    expect(canonicalString(new URL(input))).toBe(canonical);
    const signature = hmacHex(canonical);
    const separator = canonical.includes('?') ? '&' : '?';
    expect(await signUrl(input, SECRET)).toBe(`${canonical}${separator}signature=${signature}`);
    expect(
      (await verifySignedUrl(`${canonical}${separator}signature=${signature}`, SECRET)).ok,
    ).toBe(true);
  });

  it('refuses to sign a relative URL or a non-URL, at the call, naming the function', () => {
    for (const url of ['/connect?svcUserId=u-1', 'connect?svcUserId=u-1', 'not a url']) {
      expect(() => signUrl(url, SECRET)).toThrow(
        new TypeError('[@questkit/core] signUrl: url must be an absolute URL'),
      );
    }
  });

  it('signs a URL object without changing it', async () => {
    const url = new URL('https://example.com/p?a=1#x');
    const signed = await signUrl(url, SECRET);
    expect(url.href).toBe('https://example.com/p?a=1#x');
    expect(signed).toBe(
      `https://example.com/p?a=1&signature=${hmacHex('https://example.com/p?a=1')}`,
    );
    expect((await verifySignedUrl(new URL(signed), SECRET)).ok).toBe(true);
  });

  it('verifies a signature that is not the last parameter, and ignores fragments', async () => {
    const canonical = 'https://example.com/connect?a=1&b=2';
    const url = `https://example.com/connect?a=1&signature=${hmacHex(canonical)}&b=2#section`;
    const result = await verifySignedUrl(url, SECRET);
    expect(result.ok && result.url.href).toBe(canonical);
    expect(result.ok && [...result.params]).toEqual([
      ['a', '1'],
      ['b', '2'],
    ]);
  });
});

describe('raw form (hand-concatenated signers)', () => {
  it('takes signature parts out of the query as text', () => {
    expect(rawSignedString('https://x.example/p?a=%20&signature=s&b=+#f')).toBe(
      'https://x.example/p?a=%20&b=+',
    );
    expect(rawSignedString('https://x.example/p?signature=s#f')).toBe('https://x.example/p');
    expect(rawSignedString('https://x.example/p?signature')).toBe('https://x.example/p');
    expect(rawSignedString('https://x.example/p#?signature=s')).toBe('https://x.example/p');
  });

  it('accepts a URL signed by hand with %20, which the canonical form turns into +', async () => {
    const handSigned =
      'https://app.example.com/connect?svcUserId=user%201&callback=https://platform.example/cb';
    expect(canonicalString(new URL(handSigned))).not.toBe(handSigned);
    const url = `${handSigned}&signature=${hmacHex(handSigned)}`;
    const result = await verifySignedUrl(url, SECRET);
    expect(result.ok).toBe(true);
    expect(result.ok && result.params.get('svcUserId')).toBe('user 1');
    expect(result.ok && result.url.href).toBe(
      'https://app.example.com/connect?svcUserId=user+1&callback=https%3A%2F%2Fplatform.example%2Fcb',
    );
    // A fragment the browser kept is not part of what was signed.
    expect((await verifySignedUrl(`${url}#done`, SECRET)).ok).toBe(true);
    // Upper-case hex is the same signature.
    expect(
      (
        await verifySignedUrl(
          `${handSigned}&signature=${hmacHex(handSigned).toUpperCase()}`,
          SECRET,
        )
      ).ok,
    ).toBe(true);
  });

  it('still rejects a hand-signed URL once its text changes', async () => {
    const handSigned = 'https://app.example.com/connect?svcUserId=user%201';
    const signature = hmacHex(handSigned);
    for (const forged of [
      `https://app.example.com/connect?svcUserId=user%202&signature=${signature}`,
      `https://app.example.com/connect?svcUserId=user%25201&signature=${signature}`,
      `https://app.example.com/connect?svcUserId=user%201&x=1&signature=${signature}`,
      `https://app.example.com/Connect?svcUserId=user%201&signature=${signature}`,
    ]) {
      expect(await verifySignedUrl(forged, SECRET), forged).toEqual({
        ok: false,
        reason: 'bad_signature',
      });
    }
  });
});

describe('signature checks', () => {
  const canonical = 'https://app.example.com/connect?svcUserId=u-1';
  const good = hmacHex(canonical);
  const withSignature = (...signatures: string[]) =>
    `${canonical}${signatures.map((s) => `&signature=${s}`).join('')}`;

  it.each([
    ['missing', canonical, 'missing_signature'],
    ['empty', withSignature(''), 'malformed_signature'],
    ['given twice, both right', withSignature(good, good), 'duplicate_signature'],
    ['given twice, once bare', `${withSignature(good)}&signature`, 'duplicate_signature'],
    ['63 hex digits', withSignature(good.slice(1)), 'malformed_signature'],
    ['65 hex digits', withSignature(`${good}0`), 'malformed_signature'],
    ['a non-hex character', withSignature(`${good.slice(0, 63)}g`), 'malformed_signature'],
    [
      'a space inside',
      withSignature(`${good.slice(0, 32)}+${good.slice(33)}`),
      'malformed_signature',
    ],
    ['surrounded by spaces', withSignature(`+${good}+`), 'malformed_signature'],
    [
      'base64 instead of hex',
      withSignature(Buffer.from(good, 'hex').toString('base64')),
      'malformed_signature',
    ],
    [
      'one digit off',
      withSignature(`${good.slice(0, 63)}${good[63] === '0' ? '1' : '0'}`),
      'bad_signature',
    ],
    ['an HMAC of another secret', withSignature(hmacHex(canonical, 'other')), 'bad_signature'],
    ['a plain SHA-256 of the URL', withSignature(hmacHex(canonical, '')), 'bad_signature'],
  ] as const)('%s: %s', async (_name, url, reason) => {
    expect(await verifySignedUrl(url, SECRET)).toEqual({ ok: false, reason });
  });

  it('accepts any of the rotated secrets, and none else', async () => {
    expect((await verifySignedUrl(withSignature(good), ['new-secret', SECRET])).ok).toBe(true);
    expect((await verifySignedUrl(withSignature(good), [SECRET, 'new-secret'])).ok).toBe(true);
    expect((await verifySignedUrl(withSignature(good), ['new-secret', 'older-secret'])).ok).toBe(
      false,
    );
  });

  it('rejects what is not a URL', async () => {
    for (const input of ['', 'not a url', '/connect?signature=00', '//app.example.com/?a=1']) {
      expect(await verifySignedUrl(input, SECRET)).toEqual({ ok: false, reason: 'invalid_url' });
    }
    expect(await verifySignedUrl(42 as unknown as string, SECRET)).toEqual({
      ok: false,
      reason: 'invalid_url',
    });
  });

  it('throws a TypeError that does not print the secret for an empty secret', () => {
    expect(() => verifySignedUrl(withSignature(good), '')).toThrow(TypeError);
    expect(() => verifySignedUrl(withSignature(good), [])).toThrow(/\[@questkit\/core\].*secret/);
    expect(() => verifySignedUrl(withSignature(good), [SECRET, ''])).toThrow(/secret\[1\]/);
    expect(() => signUrl(canonical, '')).toThrow(/\[@questkit\/core\].*secret/);
    expect(() => verifySignedUrl(withSignature(good), ['kept-private-value', ''])).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('kept-private-value') }),
    );
  });

  it('throws a TypeError when asked to sign something that is not a URL', () => {
    expect(() => signUrl('/relative?a=1', SECRET)).toThrow(TypeError);
  });
});

// Query text built from the characters that encoders disagree on.
const queryText = fc.string({
  unit: fc.constantFrom(
    'a',
    'Z',
    '0',
    ' ',
    '+',
    '%',
    '&',
    '=',
    '?',
    '/',
    'é',
    '😀',
    '%2',
    '%20',
    '~',
    '*',
    '\u00a0',
  ),
  maxLength: 12,
});
const pathSegment = fc.string({
  unit: fc.oneof(
    fc.constantFrom('a', ' ', '%', '+', '.', '..', 'é', '?', '#', ';'),
    fc.string({ minLength: 1, maxLength: 1 }),
  ),
  maxLength: 8,
});
const paramName = queryText.filter((name) => name !== 'signature');
const urlParts = fc.record({
  scheme: fc.constantFrom('https', 'http'),
  host: fc.domain(),
  port: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
  path: fc.array(pathSegment, { maxLength: 4 }),
  params: fc.array(fc.tuple(paramName, queryText), { maxLength: 6 }),
  fragment: fc.option(queryText, { nil: undefined }),
});
type UrlParts = typeof urlParts extends fc.Arbitrary<infer T> ? T : never;

function buildUrl(parts: UrlParts): URL {
  const url = new URL(`${parts.scheme}://${parts.host}${parts.port ? `:${parts.port}` : ''}`);
  url.pathname = `/${parts.path.join('/')}`;
  for (const [name, value] of parts.params) url.searchParams.append(name, value);
  if (parts.fragment !== undefined) url.hash = parts.fragment;
  return url;
}

describe('properties', { timeout: PROPERTY_TIMEOUT_MS }, () => {
  it('round-trips: a signed URL verifies to its canonical form, signed as node:crypto would', async () => {
    await fc.assert(
      fc.asyncProperty(
        urlParts,
        fc.string({ minLength: 1, maxLength: 40 }),
        async (parts, secret) => {
          const url = buildUrl(parts);
          const signed = await signUrl(url, secret);
          const canonical = canonicalString(url);
          expect(signed.startsWith(canonical)).toBe(true);
          expect(new URL(signed).searchParams.getAll('signature')).toEqual([
            createHmac('sha256', secret).update(canonical).digest('hex'),
          ]);
          const result = await verifySignedUrl(signed, ['unrelated-secret', secret]);
          expect(result.ok).toBe(true);
          if (result.ok) {
            expect(result.url.href).toBe(canonical);
            expect([...result.params]).toEqual([...new URLSearchParams(url.search)]);
          }
          // Signing is idempotent: the signed URL signs to itself.
          expect(await signUrl(signed, secret)).toBe(signed);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('round-trips hand-written query strings too (raw text the URL parser must encode)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.domain(),
        fc.array(pathSegment, { maxLength: 3 }),
        queryText,
        async (host, path, query) => {
          const signed = await signUrl(`https://${host}/${path.join('/')}?${query}`, SECRET);
          expect((await verifySignedUrl(signed, SECRET)).ok).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  type Mutation = (parts: UrlParts) => UrlParts;
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    fc.tuple(fc.nat(), queryText).map(
      ([i, value]): Mutation =>
        (p) => ({
          ...p,
          params: p.params.map((entry, j) =>
            j === i % Math.max(1, p.params.length) ? [entry[0], value] : entry,
          ),
        }),
    ),
    fc.tuple(fc.nat(), paramName).map(
      ([i, name]): Mutation =>
        (p) => ({
          ...p,
          params: p.params.map((entry, j) =>
            j === i % Math.max(1, p.params.length) ? [name, entry[1]] : entry,
          ),
        }),
    ),
    fc.tuple(fc.nat(), paramName, queryText).map(
      ([i, name, value]): Mutation =>
        (p) => {
          const params = [...p.params];
          params.splice(i % (params.length + 1), 0, [name, value]);
          return { ...p, params };
        },
    ),
    fc.nat().map(
      (i): Mutation =>
        (p) => ({
          ...p,
          params: p.params.filter((_, j) => j !== i % Math.max(1, p.params.length)),
        }),
    ),
    fc.array(pathSegment, { maxLength: 4 }).map(
      (path): Mutation =>
        (p) => ({ ...p, path }),
    ),
    fc.domain().map(
      (host): Mutation =>
        (p) => ({ ...p, host }),
    ),
    fc.constantFrom('http', 'https').map(
      (scheme): Mutation =>
        (p) => ({ ...p, scheme }),
    ),
    fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }).map(
      (port): Mutation =>
        (p) => ({ ...p, port }),
    ),
  );

  it('rejects every change that alters the canonical URL', async () => {
    await fc.assert(
      fc.asyncProperty(urlParts, mutation, async (parts, mutate) => {
        const signature = new URL(await signUrl(buildUrl(parts), SECRET)).searchParams.get(
          'signature',
        )!;
        const changed = buildUrl(mutate(parts));
        fc.pre(canonicalString(changed) !== canonicalString(buildUrl(parts)));
        changed.searchParams.append('signature', signature);
        expect(await verifySignedUrl(changed, SECRET)).toEqual({
          ok: false,
          reason: 'bad_signature',
        });
        expect(await verifySignedUrl(changed.href, SECRET)).toEqual({
          ok: false,
          reason: 'bad_signature',
        });
      }),
      { numRuns: 300 },
    );
  });

  it('rejects every change of the signature itself', async () => {
    await fc.assert(
      fc.asyncProperty(
        urlParts,
        fc.nat({ max: 63 }),
        fc.constantFrom(...'0123456789abcdef'),
        async (parts, at, digit) => {
          const signed = new URL(await signUrl(buildUrl(parts), SECRET));
          const signature = signed.searchParams.get('signature')!;
          fc.pre(signature[at] !== digit);
          signed.searchParams.set(
            'signature',
            signature.slice(0, at) + digit + signature.slice(at + 1),
          );
          expect(await verifySignedUrl(signed, SECRET)).toEqual({
            ok: false,
            reason: 'bad_signature',
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it(
    'never throws, whatever the string',
    async () => {
      const anyString = fc.oneof(
        fc.string({ unit: 'binary', maxLength: 200 }),
        fc.webUrl({ withQueryParameters: true, withFragments: true }),
        fc
          .tuple(fc.webUrl(), fc.string({ unit: 'binary', maxLength: 100 }))
          .map(([u, s]) => `${u}?signature=${s}`),
        fc
          .tuple(fc.webUrl(), fc.stringMatching(/^[0-9a-fA-F]{64}$/))
          .map(([u, s]) => `${u}&signature=${s}`),
      );
      await fc.assert(
        fc.asyncProperty(anyString, async (input) => {
          const result = await verifySignedUrl(input, SECRET);
          expect(result.ok).toBe(false);
          if (!result.ok) expect(FAILURES).toContain(result.reason);
        }),
        { numRuns: 300 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'handles a very long URL',
    async () => {
      const long = `https://example.com/${'a'.repeat(500_000)}?x=${'%'.repeat(500_000)}&signature=${'0'.repeat(64)}`;
      expect(await verifySignedUrl(long, SECRET)).toEqual({ ok: false, reason: 'bad_signature' });
      expect(await verifySignedUrl('x'.repeat(1_000_000), SECRET)).toEqual({
        ok: false,
        reason: 'invalid_url',
      });
    },
    PROPERTY_TIMEOUT_MS,
  );
});
