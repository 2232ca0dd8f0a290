import { createHmac } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildConnectCallback } from './callback.js';
import { canonicalize } from './canonical.js';
import { createConnectRedirect, readConnectRedirect } from './redirect.js';
import { signUrl } from './sign.js';
import { verifySignedUrl } from './verify.js';

// The platform's signing vectors, copied into the repository from shared/vectors so that a clone
// tests on its own; the first test below keeps the copy equal to the original where it is present.
const COPY = new URL('../../../../vectors/connect.json', import.meta.url);
const ORIGINAL = new URL('../../../../../shared/vectors/connect.json', import.meta.url);
interface ValidVector {
  kind: string;
  url: string;
  signedString: string;
  signature: string;
  svcUserId?: string;
  callback?: string;
  input?: { callback: string; identifier: string };
}
interface Vectors {
  secret: string;
  valid: ValidVector[];
  invalid: { why: string; url: string }[];
}
const vectors: Vectors = JSON.parse(readFileSync(COPY, 'utf8'));
const { secret } = vectors;
const hmacHex = (message: string, key = secret) =>
  createHmac('sha256', key).update(message).digest('hex');

describe('shared connect vectors', () => {
  it('is the copy of shared/vectors/connect.json, with valid and invalid vectors', () => {
    expect(vectors.valid.length).toBeGreaterThan(0);
    expect(vectors.invalid.length).toBeGreaterThan(0);
    // CI checks out shared/ beside the repository; a lone clone has only the copy.
    if (existsSync(ORIGINAL)) {
      expect(JSON.parse(readFileSync(ORIGINAL, 'utf8'))).toEqual(vectors);
    }
  });

  it('has vectors of every kind', () => {
    const kinds = new Set(vectors.valid.map((vector) => vector.kind));
    expect([...kinds].sort()).toEqual(
      ['callback', 'raw-signed', 'redirect', 'redirect-callbackUrl-param'].sort(),
    );
    expect(vectors.invalid.length).toBeGreaterThanOrEqual(8);
  });

  describe.each(
    vectors.valid.map((vector) => [`${vector.kind} ${vector.url}`, vector] as const),
  )('valid: %s', (_name, vector) => {
    it('verifies', async () => {
      const result = await verifySignedUrl(vector.url, secret);
      expect(result.ok).toBe(true);
      if (result.ok) expect(result.url.href).toBe(vector.signedString);
    });

    it('signs its canonical form with the given signature', async () => {
      const canonical = new URL(vector.url);
      canonicalize(canonical);
      expect(canonical.href).toBe(vector.signedString);
      expect(hmacHex(vector.signedString)).toBe(vector.signature);
      expect(await signUrl(vector.url, secret)).toBe(vector.url);
    });

    it('is rejected under another secret', async () => {
      expect(await verifySignedUrl(vector.url, 'another-secret')).toEqual({
        ok: false,
        reason: 'bad_signature',
      });
    });

    if (vector.kind === 'callback') {
      it('is what buildConnectCallback produces', async () => {
        const { callback, identifier } = vector.input!;
        expect(await buildConnectCallback(callback, identifier, secret)).toBe(vector.url);
      });
    }

    if (vector.kind.startsWith('redirect')) {
      const callbackParam = vector.kind === 'redirect' ? 'callback' : 'callbackUrl';
      it('reads svcUserId and callback', async () => {
        expect(await readConnectRedirect(vector.url, secret)).toEqual({
          ok: true,
          svcUserId: vector.svcUserId,
          callback: vector.callback,
          callbackParam,
        });
      });

      it('is what createConnectRedirect produces', async () => {
        const url = new URL(vector.url);
        const redirectUrl = new URL(url.origin + url.pathname);
        for (const [name, value] of url.searchParams) {
          if (!['svcUserId', 'callback', 'callbackUrl', 'signature'].includes(name)) {
            redirectUrl.searchParams.append(name, value);
          }
        }
        expect(
          await createConnectRedirect({
            redirectUrl,
            svcUserId: vector.svcUserId!,
            callback: vector.callback!,
            secret,
            callbackParam,
          }),
        ).toBe(vector.url);
      });
    }
  });

  const expectedReason: Record<string, string> = {
    'svcUserId changed': 'bad_signature',
    'callback changed': 'bad_signature',
    'signature missing': 'missing_signature',
    'signature truncated': 'malformed_signature',
    'signature not hex': 'malformed_signature',
    'signature given twice': 'duplicate_signature',
    'signed with another secret': 'bad_signature',
    'parameter added after signing': 'bad_signature',
  };

  it.each(
    vectors.invalid.map((vector) => [vector.why, vector.url] as const),
  )('invalid: %s', async (why, url) => {
    const reason = expectedReason[why] ?? 'bad_signature';
    expect(await verifySignedUrl(url, secret)).toEqual({ ok: false, reason });
    expect(await readConnectRedirect(url, secret)).toEqual({ ok: false, reason });
    // Rotation must not turn a forgery into a match.
    expect((await verifySignedUrl(url, ['unrelated', secret])).ok).toBe(false);
  });
});
