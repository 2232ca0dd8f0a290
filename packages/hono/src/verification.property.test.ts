import { fail, ok } from '@questkit/core';
import fc from 'fast-check';
import { Hono, type MiddlewareHandler } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Listening, listen, send } from './http.testkit.js';
import { verificationEndpoint } from './verification.js';

const KEY = 'property-key-0123456789';
const MAX_BODY = 4 * 1024;

// An earlier middleware may have read the body through Hono, or not: chosen per request.
const readers: Record<string, MiddlewareHandler> = {
  none: (_c, next) => next(),
  json: async (c, next) => {
    await c.req.json().catch(() => undefined);
    await next();
  },
  text: async (c, next) => {
    await c.req.text();
    await next();
  },
};

function buildApp(): Hono {
  const app = new Hono();
  app.use('/verify/:reader', async (c, next) => readers[c.req.param('reader')]!(c, next));
  app.all(
    '/verify/:reader',
    verificationEndpoint({
      apiKey: KEY,
      maxBodyBytes: MAX_BODY,
      // q-ok must be claimed, so its answer may never be the deadline's: 2 s, far past a busy
      // machine's delays, costs only the few generated q-hang claims.
      timeoutMs: 2_000,
      onError: () => {},
      quests: {
        'q-ok': () => ok('Claimed.'),
        'q-fail': () => fail('Not yet.'),
        'q-throw': () => {
          throw new Error('boom');
        },
        'q-reject': () => Promise.reject(new Error('boom')),
        'q-hang': () => new Promise(() => {}),
        'q-garbage': () => ({ claimed: 'yes' }) as never,
      },
    }),
  );
  return app;
}

const goodClaim = fc.record({
  userId: fc.string({ minLength: 1, maxLength: 20 }),
  communityId: fc.string({ maxLength: 20 }),
  subdomain: fc.string({ maxLength: 20 }),
  questId: fc.constantFrom('q-ok', 'q-fail', 'q-throw', 'q-reject', 'q-hang', 'q-garbage', 'q-?'),
  requestId: fc.string({ maxLength: 20 }),
  accounts: fc.record(
    { email: fc.string({ maxLength: 30 }), 'svc-connect': fc.string({ maxLength: 30 }) },
    { requiredKeys: [] },
  ),
});

const bodies = fc.oneof(
  { weight: 4, arbitrary: goodClaim.map((claim) => ({ claim, text: JSON.stringify(claim) })) },
  {
    weight: 1,
    arbitrary: goodClaim.map((claim) => ({
      claim,
      text: JSON.stringify({ ...claim, pad: 'x'.repeat(MAX_BODY) }),
    })),
  },
  { weight: 1, arbitrary: fc.json().map((text) => ({ claim: undefined, text })) },
  { weight: 1, arbitrary: fc.string().map((s) => ({ claim: undefined, text: `{"userId":${s}` })) },
  {
    weight: 1,
    arbitrary: fc
      .uint8Array({ maxLength: 200 })
      .map((bytes) => ({ claim: undefined, text: Buffer.from(bytes).toString('latin1') })),
  },
);

const requests = fc.record({
  method: fc.constantFrom('POST', 'POST', 'POST', 'GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
  key: fc.oneof(
    fc.constant<string | undefined>(KEY),
    fc.constant(undefined),
    fc.stringMatching(/^[!-~]{0,40}$/),
  ),
  contentType: fc.constantFrom('application/json', 'text/plain', undefined),
  reader: fc.constantFrom('none', 'json', 'text'),
  body: bodies,
});

type Generated = typeof requests extends fc.Arbitrary<infer T> ? T : never;

function headersOf({ key, contentType }: Generated): Record<string, string> {
  const headers: Record<string, string> = {};
  if (key !== undefined) headers['x-api-key'] = key;
  if (contentType) headers['content-type'] = contentType;
  return headers;
}

/** The contract, and the one case that must be a 200. */
function check(request: Generated, status: number, type: string | null, text: string): void {
  expect([200, 400]).toContain(status);
  expect(type).toBe('application/json; charset=utf-8');
  const parsed = JSON.parse(text) as { message: unknown };
  expect(Object.keys(parsed)).toEqual(['message']);
  expect(typeof parsed.message).toBe('string');
  expect((parsed.message as string).trim()).not.toBe('');
  expect(text).not.toContain(KEY);
  const claimable =
    request.method === 'POST' &&
    request.key === KEY &&
    request.body.claim?.questId === 'q-ok' &&
    Buffer.byteLength(request.body.text) <= MAX_BODY;
  expect(status === 200).toBe(claimable);
}

describe('verificationEndpoint: every generated request gets 200 or 400 JSON {message}', () => {
  const app = buildApp();
  let server: Listening;
  beforeAll(async () => {
    server = await listen(app);
  });
  afterAll(() => server.close());

  it('in-process, with and without an earlier body reader', async () => {
    await fc.assert(
      fc.asyncProperty(requests, async (request) => {
        const hasBody = request.method !== 'GET';
        const response = await app.request(`/verify/${request.reader}`, {
          method: request.method,
          headers: headersOf(request),
          body: hasBody ? request.body.text : null,
        });
        check(
          request,
          response.status,
          response.headers.get('content-type'),
          await response.text(),
        );
      }),
      { numRuns: 300, seed: 20261121 },
    );
  });

  it('over real HTTP on a loopback port', async () => {
    await fc.assert(
      fc.asyncProperty(requests, async (request) => {
        const answer = await send(server.origin, {
          method: request.method,
          path: `/verify/${request.reader}`,
          headers: headersOf(request),
          body: request.body.text,
          timeoutMs: 10_000,
        });
        const type = answer.headers['content-type'];
        check(request, answer.status, typeof type === 'string' ? type : null, answer.text);
      }),
      { numRuns: 200, seed: 20261122 },
    );
  });
});
