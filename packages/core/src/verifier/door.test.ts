import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { DoorBody, DoorRequest } from '../adapter/door.js';
import { DRAIN_BYTES } from '../front-door/drain.js';
import { DEFAULT_MESSAGES } from '../reasons.js';
import { ok } from '../results.js';
import { createVerifier, type ErrorInfo } from './index.js';

const KEY = 'door-test-key-5b1e';
const CLAIM = { userId: 'u', communityId: 'c', subdomain: 's', questId: 'q', requestId: 'r-7' };

function request(
  body: DoorBody,
  headers: Record<string, string> = { 'x-api-key': KEY },
  method = 'POST',
): DoorRequest {
  return { method, url: '/verify', header: (name) => headers[name], body };
}

function verifier(onError?: (error: unknown, info: ErrorInfo) => void) {
  return createVerifier({ apiKey: KEY, verify: () => ok('Claimed.'), onError });
}

describe('verifier.handle: the door', () => {
  it('answers the timeout without calling the handler when the deadline passed before it', async () => {
    // The body arrived whole, but only once the deadline had passed (counted from receivedAt).
    let calls = 0;
    const late = createVerifier({
      apiKey: KEY,
      timeoutMs: 1_000,
      verify: () => {
        calls++;
        return ok('Claimed.');
      },
    });
    const answer = await late.handle(
      { ...request({ kind: 'parsed', value: CLAIM }), receivedAt: Date.now() - 5_000 },
      undefined,
    );
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ message: DEFAULT_MESSAGES.timeout });
    expect(calls).toBe(0);
  });

  it('judges a body the framework parsed, after the key check', async () => {
    const answer = await verifier().handle(request({ kind: 'parsed', value: CLAIM }), undefined);
    expect(answer).toEqual({
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      cookies: [],
      body: '{"message":"Claimed."}',
      close: false,
    });
    const noKey = await verifier().handle(request({ kind: 'parsed', value: CLAIM }, {}), undefined);
    expect(noKey.status).toBe(400);
    expect(JSON.parse(noKey.body).message).toMatch(/did not receive the API key/);
  });

  it('answers a body the framework gave up on with its own message, after the key check, and closes', async () => {
    const tooLarge = await verifier().handle(
      request({ kind: 'failed', reason: 'too_large' }),
      undefined,
    );
    expect(tooLarge).toMatchObject({
      status: 400,
      body: '{"message":"The claim request is too large."}',
      close: true,
    });
    const unreadable = await verifier().handle(
      request({ kind: 'failed', reason: 'unreadable' }),
      undefined,
    );
    expect(JSON.parse(unreadable.body).message).toMatch(/could not be read/);
    const badKey = await verifier().handle(
      request({ kind: 'failed', reason: 'too_large' }, { 'x-api-key': 'wrong' }),
      undefined,
    );
    expect(JSON.parse(badKey.body).message).toMatch(/did not accept the API key/);
  });

  it('drains a refused body that ends, and keeps the connection; closes on one that does not', async () => {
    const whole = () =>
      ({ kind: 'stream', stream: Readable.from([JSON.stringify(CLAIM)]) }) as const;
    const refused = await verifier().handle(
      request(whole(), { 'content-length': '80' }),
      undefined,
    );
    expect(refused).toMatchObject({ status: 400, close: false });
    const wrongMethod = await verifier().handle(
      request(whole(), { 'x-api-key': KEY, 'content-length': '80' }, 'PUT'),
      undefined,
    );
    expect(wrongMethod).toMatchObject({ status: 400, close: false });
    // A body that never ends: drained until the deadline (100 ms here), then the connection closes.
    const short = createVerifier({ apiKey: KEY, verify: () => ok(), timeoutMs: 100 });
    const endless = new Readable({ read() {} });
    const started = Date.now();
    const stuck = await short.handle(
      request({ kind: 'stream', stream: endless }, { 'content-length': '80' }),
      undefined,
    );
    expect(stuck).toMatchObject({ status: 400, close: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    const read = await verifier().handle(
      request(whole(), { 'x-api-key': KEY, 'content-length': '80' }),
      undefined,
    );
    expect(read).toMatchObject({ status: 200, close: false });
    const noBody = await verifier().handle(
      request({ kind: 'bytes', value: '' }, {}, 'GET'),
      undefined,
    );
    expect(noBody).toMatchObject({ status: 400, close: false });
  });

  it('drains the rest of a Web stream it stopped reading at the limit, and keeps the connection', async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (pulled === 10) return controller.close();
          pulled++;
          controller.enqueue(new Uint8Array(1024).fill(0x20));
        },
      },
      { highWaterMark: 0 },
    );
    const v = createVerifier({ apiKey: KEY, verify: () => ok(), maxBodyBytes: 2048 });
    const answer = await v.handle(
      request({ kind: 'stream', stream }, { 'x-api-key': KEY, 'transfer-encoding': 'chunked' }),
      undefined,
    );
    expect(answer).toMatchObject({ status: 400, close: false });
    expect(JSON.parse(answer.body)).toEqual({ message: DEFAULT_MESSAGES.bodyTooLarge });
    expect(pulled).toBe(10);
  });

  it('refuses a declared length over the limit, then discards a bounded part of it', async () => {
    const chunk = new Uint8Array(64 * 1024);
    let pulled = 0;
    // No high-water mark: the stream is pulled only when somebody reads it. 100 MiB declared.
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulled += chunk.byteLength;
          controller.enqueue(chunk);
        },
      },
      { highWaterMark: 0 },
    );
    const v = createVerifier({ apiKey: KEY, verify: () => ok(), maxBodyBytes: 100 });
    const answer = await v.handle(
      request({ kind: 'stream', stream }, { 'x-api-key': KEY, 'content-length': '104857600' }),
      undefined,
    );
    expect(answer).toMatchObject({ status: 400, close: true });
    expect(JSON.parse(answer.body)).toEqual({ message: DEFAULT_MESSAGES.bodyTooLarge });
    // Drained before the answer, 4 MiB at most: the rest is left on the wire, and closed on.
    expect(pulled).toBeGreaterThan(0);
    expect(pulled).toBeLessThanOrEqual(DRAIN_BYTES + chunk.byteLength);
  });
});

describe('verifier.node: a failed write', () => {
  it('reports a throw while writing the answer to onError, never as an unhandled rejection', async () => {
    const errors: ErrorInfo[] = [];
    const v = verifier((_error, info) => errors.push(info));
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const server = createServer((req, res) => {
      // The response is already gone when core writes: its setHeader throws.
      res.setHeader = () => {
        throw new Error('Cannot set headers after they are sent to the client');
      };
      v.node(req, res);
      setTimeout(() => res.destroy(), 50);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await fetch(`http://127.0.0.1:${port}/`, {
        method: 'POST',
        headers: { 'x-api-key': KEY },
        body: JSON.stringify(CLAIM),
      }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(errors).toEqual([{ reason: 'write_error' }]);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      server.close();
    }
  });
});

describe('createVerifier: quest ids from unset variables', () => {
  it.each([
    'undefined',
    'null',
    '',
    ' ',
  ])('throws at start-up for the quest key %j, naming the option', (key) => {
    expect(() => createVerifier({ apiKey: KEY, quests: { [key]: () => ok() } })).toThrow(
      /\[@questkit\/core\] quests: the key .* is not a quest id/,
    );
  });
});
