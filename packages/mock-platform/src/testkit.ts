// Shared by the tests (not exported by the package): a platform on a manual clock that checks
// every answer against core's schemas, and a terse request helper.
import { expect } from 'vitest';
import type { z } from 'zod';
import { createManualClock, type ManualClock } from './clock.js';
import { createMockPlatform, type MockPlatform, type MockPlatformOptions } from './platform.js';
import { DEMO } from './seed/demo-ids.js';

/** A platform for tests, its clock and the internal errors it reported. */
export interface TestPlatform {
  platform: MockPlatform;
  clock: ManualClock;
  errors: unknown[];
  call(method: string, path: string, init?: CallInit): Promise<Answer>;
}

/** How to call: which credential, headers, body. */
export interface CallInit {
  /** `x-api-key`; default the demo read-write key; null sends none. */
  key?: string | null;
  /** A member token for `authorization: Bearer`. */
  token?: string;
  headers?: Record<string, string>;
  /** JSON-encoded unless a string. */
  body?: unknown;
}

/** A decoded answer. */
export interface Answer {
  status: number;
  headers: Headers;
  /** The JSON body, or null when the answer is not JSON (empty, HTML). */
  body: unknown;
  text: string;
}

/** A seeded platform on a manual clock, answers checked against their schemas. */
export function createTestPlatform(options: MockPlatformOptions = {}): TestPlatform {
  const clock = createManualClock('2025-06-01T12:00:00.000Z');
  const errors: unknown[] = [];
  const platform = createMockPlatform({
    clock: { now: clock.now },
    validateResponses: true,
    onError: (error) => errors.push(error),
    ...options,
  });
  const call = async (method: string, path: string, init: CallInit = {}): Promise<Answer> => {
    const headers = new Headers(init.headers);
    const key =
      init.key === undefined && init.token === undefined ? DEMO.apiKeys.readWrite : init.key;
    if (key) headers.set('x-api-key', key);
    if (init.token) headers.set('authorization', `Bearer ${init.token}`);
    let body: string | undefined;
    if (init.body !== undefined) {
      body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
      headers.set('content-type', 'application/json');
    }
    const url = path.startsWith('/')
      ? `http://mock.test${path}`
      : `http://mock.test/public/communities/${path}`;
    const response = await platform.fetch(new Request(url, { method, headers, body }));
    const text = await response.text();
    if (errors.length > 0) throw errors[0];
    return {
      status: response.status,
      headers: response.headers,
      body: response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : null,
      text,
    };
  };
  return { platform, clock, errors, call };
}

/** Asserts that a body parses with a schema, and returns the parsed value. */
export function expectShape<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body);
  if (!result.success) expect.fail(`body does not match the schema: ${result.error.message}`);
  return result.data;
}

/** Asserts an error answer: its status, the {message} body and words the message must contain. */
export function expectError(answer: Answer, status: number, ...words: string[]): void {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('content-type')).toContain('application/json');
  const body = answer.body as { message?: unknown };
  expect(typeof body.message).toBe('string');
  for (const word of words) expect(body.message).toContain(word);
}
