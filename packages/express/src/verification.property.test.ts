import { gzipSync } from 'node:zlib';
import { fail, ok } from '@questkit/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_KEY,
  claim,
  EXPRESS_VERSIONS,
  type ExpressApp,
  jsonOf,
  listen,
  send,
} from './http.testkit.js';
import { verificationEndpoint, verificationErrors } from './verification.js';

type Express = (typeof EXPRESS_VERSIONS)[number]['express'];

const SETUPS = [
  { name: 'no parser', parse: () => [] },
  { name: 'app-level express.json()', parse: (x: Express) => [x.json({ limit: '32kb' })] },
  { name: 'app-level express.text()', parse: (x: Express) => [x.text({ type: '*/*' })] },
] as const;

const method = fc.oneof(
  { weight: 4, arbitrary: fc.constant('POST') },
  { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS') },
);
const apiKey = fc.constantFrom<string | undefined>(API_KEY, API_KEY, 'wrong-key', '', undefined);
const contentType = fc.constantFrom<string | undefined>(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/octet-stream',
  undefined,
);
const body: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  fc
    .record({ extra: fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }) })
    .map(({ extra }) => JSON.stringify({ ...extra, ...claim() })),
  fc
    .tuple(fc.constantFrom(...Object.keys(claim())), fc.jsonValue())
    .map(([key, value]) => JSON.stringify(claim({ [key]: value }))),
  fc.json(),
  fc.string(),
  fc.uint8Array({ maxLength: 256 }),
  fc.constant(''),
  fc.nat({ max: 80_000 }).map((size) => JSON.stringify(claim({ padding: 'x'.repeat(size) }))),
);
const requestArbitrary = fc.record({
  method,
  apiKey,
  contentType,
  gzip: fc.boolean(),
  body,
});

describe.each(EXPRESS_VERSIONS)('verificationEndpoint on $name, for any request', ({ express }) => {
  describe.each(SETUPS)('with $name', ({ parse }) => {
    let server: Awaited<ReturnType<typeof listen>>;
    beforeAll(async () => {
      const app: ExpressApp = express();
      const verify = verificationEndpoint({
        apiKey: API_KEY,
        timeoutMs: 1000,
        verify: ({ claim }) => {
          if (claim.userId.length % 3 === 0) throw new Error('handler failure');
          return claim.userId.length % 3 === 1 ? ok() : fail('Not yet.');
        },
        onError: () => {},
      });
      for (const parser of parse(express)) app.use(parser);
      app.all('/verify', verify);
      app.use('/verify', verificationErrors(verify));
      server = await listen(app);
    });
    afterAll(() => server.close());

    it('answers 200 or 400 with a JSON {message}', async () => {
      await fc.assert(
        fc.asyncProperty(requestArbitrary, async (input) => {
          const headers: Record<string, string> = {};
          if (input.apiKey !== undefined) headers['x-api-key'] = input.apiKey;
          if (input.contentType !== undefined) headers['content-type'] = input.contentType;
          if (input.gzip) headers['content-encoding'] = 'gzip';
          const reply = await send(`${server.origin}/verify`, {
            method: input.method,
            headers,
            body: input.gzip ? gzipSync(input.body) : input.body,
            // Only a hang should fail here: the endpoint's deadline (1 s) answers long before.
            timeoutMs: 10_000,
          });
          expect([200, 400]).toContain(reply.status);
          if (reply.status === 200) {
            // A claim only passes with the method and key the platform uses.
            expect([input.method, input.apiKey]).toEqual(['POST', API_KEY]);
          }
          expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
          const json = jsonOf(reply) as { message?: unknown } | undefined;
          expect(Object.keys(json ?? {})).toEqual(['message']);
          expect(typeof json?.message).toBe('string');
          expect((json?.message as string).trim()).not.toBe('');
        }),
        { numRuns: 100 },
      );
    });
  });
});
