import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fail, ok } from './results.js';
import { createVerifier } from './verifier/index.js';

const KEY = 'property-key';
const claimFields = fc.record(
  {
    userId: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
    communityId: fc.string(),
    subdomain: fc.string(),
    questId: fc.oneof(fc.constantFrom('q-ok', 'q-fail', 'q-throw'), fc.string()),
    requestId: fc.string(),
    accounts: fc.oneof(fc.anything(), fc.record({ email: fc.string(), discord: fc.anything() })),
    __proto__: fc.anything(),
    constructor: fc.anything(),
  },
  { requiredKeys: [] },
);

// Bodies of every shape: valid-ish claims, arbitrary JSON, broken JSON, random bytes, deep nesting.
const bodies = fc.oneof(
  claimFields.map((value) => JSON.stringify(value)),
  fc.json(),
  fc.string().map((s) => `{"userId": ${s}`),
  fc.uint8Array({ maxLength: 300 }),
  fc.integer({ min: 1, max: 5_000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc
    .integer({ min: 1, max: 5_000 })
    .map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  fc.constant(
    '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}',
  ),
);

const requests = fc.record({
  method: fc.constantFrom(
    'POST',
    'POST',
    'POST',
    'GET',
    'PUT',
    'DELETE',
    'PATCH',
    'OPTIONS',
    'HEAD',
  ),
  key: fc.oneof(
    fc.constant(KEY),
    fc.constant(undefined),
    fc.string({ maxLength: 40 }).filter((s) => /^[\x21-\x7e]*$/.test(s)),
  ),
  contentType: fc.constantFrom(
    'application/json',
    'text/plain',
    'application/x-www-form-urlencoded',
    undefined,
  ),
  body: bodies,
});

describe('fetch(): every request gets 200 or 400 JSON {message}', () => {
  it('holds for arbitrary methods, keys, content types and bodies', async () => {
    const verifier = createVerifier({
      apiKey: KEY,
      maxBodyBytes: 32 * 1024,
      timeoutMs: 200,
      onError: () => {},
      quests: {
        'q-ok': () => ok('yes'),
        'q-fail': () => fail('no'),
        'q-throw': () => {
          throw new Error('boom');
        },
      },
      verify: () => 'garbage' as never,
    });
    await fc.assert(
      fc.asyncProperty(requests, async ({ method, key, contentType, body }) => {
        const headers: Record<string, string> = {};
        if (key !== undefined) headers['x-api-key'] = key;
        if (contentType) headers['content-type'] = contentType;
        const hasBody = method !== 'GET' && method !== 'HEAD';
        const response = await verifier.fetch(
          new Request('http://127.0.0.1/verify', { method, headers, body: hasBody ? body : null }),
        );
        expect([200, 400]).toContain(response.status);
        expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
        const parsed = JSON.parse(await response.text());
        expect(Object.keys(parsed)).toEqual(['message']);
        expect(typeof parsed.message).toBe('string');
        expect(parsed.message.trim()).not.toBe('');
        expect(parsed.message).not.toContain(KEY);
        if (response.status === 200) expect(key).toBe(KEY);
      }),
      { numRuns: 400, seed: 20261121 },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('holds for handlers that throw, reject, return garbage or never settle', async () => {
    const behaviours = [
      () => {
        throw new Error('sync');
      },
      () => Promise.reject(new Error('async')),
      () => Promise.reject('not even an error'),
      () => null,
      () => ({ claimed: 'yes' }),
      () => new Promise(() => {}),
      () => ok('fine'),
      () => fail(''),
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...behaviours), async (behaviour) => {
        const verifier = createVerifier({
          apiKey: KEY,
          timeoutMs: 15,
          onError: () => {},
          verify: behaviour as never,
        });
        const decision = await verifier.decide({
          headers: { 'x-api-key': KEY },
          body: JSON.stringify({
            userId: 'u',
            communityId: 'c',
            subdomain: 's',
            questId: 'q',
            requestId: 'r',
          }),
        });
        expect([200, 400]).toContain(decision.status);
        expect(decision.body.message.length).toBeGreaterThan(0);
        expect(decision.status === 200).toBe(decision.reason === 'ok');
      }),
      { numRuns: 40, seed: 7 },
    );
  });
});
