import { fail, ok } from '@questkit/core';
import fc from 'fast-check';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { API_KEY, claim, expectContract, inject } from './http.testkit.js';
import { verificationEndpoint } from './verification.js';

const app = Fastify();
app.register(verificationEndpoint, {
  path: '/verify',
  apiKey: API_KEY,
  timeoutMs: 20,
  maxBodyBytes: 512,
  onError: () => {},
  verify: ({ claim: { questId } }) => {
    if (questId === 'throws') throw new Error('boom');
    if (questId === 'hangs') return new Promise<never>(() => {});
    return questId === 'ok' ? ok('Done.') : fail('Not done.');
  },
});

const printable = fc.string({
  unit: fc.constantFrom(...'ab/;=+ -_.*{}"'.split('')),
  maxLength: 30,
});
const method = fc.constantFrom(
  'POST',
  'POST',
  'POST',
  'GET',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'HEAD',
);
const apiKey = fc.option(fc.oneof(fc.constant(API_KEY), printable), { nil: undefined });
const contentType = fc.option(
  fc.oneof(
    fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-8', ''),
    printable,
  ),
  { nil: undefined },
);
const body = fc.oneof(
  fc
    .constantFrom('ok', 'fail', 'throws', 'hangs')
    .map((questId) => JSON.stringify(claim({ questId }))),
  fc
    .record({ questId: fc.constant('ok'), extra: fc.jsonValue() })
    .map((value) => JSON.stringify(claim(value))),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 700 }),
  fc.uint8Array({ maxLength: 700 }),
  fc.constant(undefined),
);

describe('any request', () => {
  beforeAll(() => app.ready());
  afterAll(() => app.close());

  it('gets 200 or 400 JSON {message}', async () => {
    await fc.assert(
      fc.asyncProperty(method, apiKey, contentType, body, async (method, key, type, payload) => {
        const headers: Record<string, string> = {};
        if (key !== undefined) headers['x-api-key'] = key;
        if (type !== undefined) headers['content-type'] = type;
        const answer = await inject(app, { method, headers, body: payload });
        expectContract(answer, method);
      }),
      { numRuns: 300, interruptAfterTimeLimit: 20_000 },
    );
  });
});
