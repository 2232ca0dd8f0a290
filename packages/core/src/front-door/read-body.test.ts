import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { DoorBody, DoorRequest } from '../adapter/door.js';
import { bodyLeftOnWire, type Emitter, followEmitter, readBody } from './read-body.js';

const soon = () => Date.now() + 2_000;
const limits = (maxBytes = 100, deadline = soon()) => ({ maxBytes, deadline });
const encode = (text: string) => new TextEncoder().encode(text);
const req = (body: DoorBody, headers: Record<string, string> = {}) => ({
  body,
  header: (name: string) => headers[name],
});

function webStream(
  chunks: readonly (Uint8Array | 'error')[],
  close = true,
): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) {
        if (chunk === 'error') return controller.error(new Error('connection reset'));
        controller.enqueue(chunk);
      }
      if (close) controller.close();
    },
  });
}

describe('readBody: each kind of body', () => {
  it('hands a parsed body over as it is', async () => {
    const value = { a: 1 };
    expect(await readBody(req({ kind: 'parsed', value }), limits())).toEqual({
      ok: true,
      parsed: value,
    });
  });

  it('reports what the framework could not read', async () => {
    expect(await readBody(req({ kind: 'failed', reason: 'too_large' }), limits())).toEqual({
      ok: false,
      reason: 'too_large',
    });
    expect(await readBody(req({ kind: 'failed', reason: 'unreadable' }), limits())).toEqual({
      ok: false,
      reason: 'unreadable',
    });
  });

  it('decodes text and bytes as strict UTF-8', async () => {
    expect(await readBody(req({ kind: 'bytes', value: 'héllo' }), limits())).toEqual({
      ok: true,
      text: 'héllo',
    });
    expect(await readBody(req({ kind: 'bytes', value: encode('héllo') }), limits())).toEqual({
      ok: true,
      text: 'héllo',
    });
    expect(await readBody(req({ kind: 'bytes', value: '' }), limits())).toEqual({
      ok: true,
      text: '',
    });
    const invalid = new Uint8Array([0x7b, 0xff, 0x7d]);
    expect(await readBody(req({ kind: 'bytes', value: invalid }), limits())).toEqual({
      ok: false,
      reason: 'bad_encoding',
    });
  });

  it('reads a Web stream, a Node stream and an async iterable, across chunks', async () => {
    // A two-byte character split across two chunks must decode whole.
    const [a, b] = [encode('{"x":"é').slice(0, 7), encode('{"x":"é"}').slice(7)];
    expect(await readBody(req({ kind: 'stream', stream: webStream([a, b]) }), limits())).toEqual({
      ok: true,
      text: '{"x":"é"}',
    });
    const node = Readable.from([Buffer.from('{"y":'), Buffer.from('2}')]);
    expect(await readBody(req({ kind: 'stream', stream: node }), limits())).toEqual({
      ok: true,
      text: '{"y":2}',
    });
    async function* parts() {
      yield 'te';
      yield encode('xt');
    }
    expect(await readBody(req({ kind: 'stream', stream: parts() }), limits())).toEqual({
      ok: true,
      text: 'text',
    });
  });
});

describe('readBody: a body the framework reads whole', () => {
  const whole = (read: () => Promise<Uint8Array | ArrayBuffer>): DoorBody => ({
    kind: 'whole',
    read,
  });

  it('asks for it once and decodes it, from bytes or an ArrayBuffer', async () => {
    let reads = 0;
    const bytes = encode('{"a":"é"}');
    const body = whole(async () => {
      reads++;
      return bytes.buffer.slice(0);
    });
    expect(
      await readBody(req(body, { 'content-length': String(bytes.byteLength) }), limits()),
    ).toEqual({
      ok: true,
      text: '{"a":"é"}',
    });
    expect(reads).toBe(1);
    expect(await readBody(req(whole(async () => encode('{}'))), limits())).toEqual({
      ok: true,
      text: '{}',
    });
  });

  it('never asks for a body declared over the limit, and refuses one that is over it anyway', async () => {
    let reads = 0;
    const body = whole(async () => {
      reads++;
      return new Uint8Array(200);
    });
    expect(await readBody(req(body, { 'content-length': '200' }), limits(100))).toEqual({
      ok: false,
      reason: 'too_large',
    });
    expect(reads).toBe(0);
    // A framework that hands over more than it should is still held to the limit.
    expect(await readBody(req(body, { 'content-length': '10' }), limits(100))).toEqual({
      ok: false,
      reason: 'too_large',
    });
    expect(reads).toBe(1);
  });

  it('answers unreadable for a read that rejects or throws, and bad_encoding for bytes that are not UTF-8', async () => {
    const rejecting = whole(() => Promise.reject(new TypeError('Body is unusable')));
    expect(await readBody(req(rejecting), limits())).toEqual({ ok: false, reason: 'unreadable' });
    const throwing = whole(() => {
      throw new TypeError('Body already used');
    });
    expect(await readBody(req(throwing), limits())).toEqual({ ok: false, reason: 'unreadable' });
    const latin1 = whole(async () => new Uint8Array([0x7b, 0xe9, 0x7d]));
    expect(await readBody(req(latin1), limits())).toEqual({ ok: false, reason: 'bad_encoding' });
  });

  it('gives up at the deadline on a read that never settles', async () => {
    const started = Date.now();
    const never = whole(() => new Promise<Uint8Array>(() => {}));
    expect(await readBody(req(never), limits(100, Date.now() + 40))).toEqual({
      ok: false,
      reason: 'timeout',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(35);
  });
});

describe('readBody: limits', () => {
  it('counts bytes, not characters', async () => {
    expect(await readBody(req({ kind: 'bytes', value: 'ééé' }), limits(5))).toEqual({
      ok: false,
      reason: 'too_large',
    });
    expect(await readBody(req({ kind: 'bytes', value: 'éé' }), limits(4))).toEqual({
      ok: true,
      text: 'éé',
    });
  });

  it('refuses a declared length over the limit before touching the body', async () => {
    let touched = 0;
    async function* counted() {
      touched++;
      yield encode('{}');
    }
    const body: DoorBody = { kind: 'stream', stream: { [Symbol.asyncIterator]: counted } };
    expect(await readBody(req(body, { 'content-length': '157286400' }), limits(100))).toEqual({
      ok: false,
      reason: 'too_large',
    });
    expect(touched).toBe(0);
    // At the limit it is read.
    expect(await readBody(req(body, { 'content-length': '2' }), limits(2))).toEqual({
      ok: true,
      text: '{}',
    });
    expect(touched).toBe(1);
  });
  it('stops reading a stream as soon as it passes the limit, without draining it', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(40));
      },
    });
    expect(await readBody(req({ kind: 'stream', stream: endless }), limits(100))).toEqual({
      ok: false,
      reason: 'too_large',
    });
    expect(pulled).toBeLessThan(6);
  });

  it('gives up on a stalled stream at the deadline', async () => {
    const started = Date.now();
    const stalled = webStream([encode('{"a"')], false);
    expect(
      await readBody(req({ kind: 'stream', stream: stalled }), limits(100, Date.now() + 50)),
    ).toEqual({
      ok: false,
      reason: 'timeout',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('gives up on a Node stream that never ends, leaving it undestroyed', async () => {
    const stalled = new Readable({ read() {} });
    stalled.push('{"a"');
    expect(
      await readBody(req({ kind: 'stream', stream: stalled }), limits(100, Date.now() + 30)),
    ).toEqual({
      ok: false,
      reason: 'timeout',
    });
    expect(stalled.destroyed).toBe(false);
  });

  it("holds the process open only through the body's own source: its deadline timer is unref'd", async () => {
    const refedTimers = () =>
      process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
    const before = refedTimers();
    const bodies: DoorBody[] = [
      { kind: 'stream', stream: new Readable({ read() {} }) },
      { kind: 'stream', stream: webStream([], false) },
      { kind: 'whole', read: () => new Promise(() => {}) },
    ];
    const reads = bodies.map((body) => readBody(req(body), limits(100, Date.now() + 60)));
    expect(refedTimers()).toBe(before);
    // Each still gives up at its deadline.
    expect(await Promise.all(reads)).toEqual(bodies.map(() => ({ ok: false, reason: 'timeout' })));
  });
});

describe('readBody: a Node stream, as a request is', () => {
  const listeners = (stream: Readable) =>
    (['data', 'end', 'error', 'close'] as const).map((event) => stream.listenerCount(event));

  it('reads a source with only one of on/removeListener through its iterator, not its events', async () => {
    async function* parts() {
      yield '{}';
    }
    for (const extra of [{ on: () => undefined }, { removeListener: () => undefined }]) {
      const source = { ...extra, [Symbol.asyncIterator]: parts };
      expect(await readBody(req({ kind: 'stream', stream: source }), limits())).toEqual({
        ok: true,
        text: '{}',
      });
    }
  });

  it('decodes a character split across Buffer chunks whole', async () => {
    const bytes = encode('{"x":"é"}');
    const node = Readable.from([Buffer.from(bytes.slice(0, 7)), Buffer.from(bytes.slice(7))]);
    expect(await readBody(req({ kind: 'stream', stream: node }), limits())).toEqual({
      ok: true,
      text: '{"x":"é"}',
    });
  });

  it('accepts a body of exactly the limit, and stops an endless one past it', async () => {
    const exact = Readable.from([Buffer.alloc(60, 0x20), Buffer.alloc(40, 0x20)]);
    expect(await readBody(req({ kind: 'stream', stream: exact }), limits(100))).toEqual({
      ok: true,
      text: ' '.repeat(100),
    });
    let pulled = 0;
    const endless = new Readable({
      read() {
        pulled++;
        // Later, as a socket does: a push inside read() would flow in one endless loop.
        setImmediate(() => this.push(Buffer.alloc(40, 0x20)));
      },
    });
    // Its deadline is far off: only the limit can end this read.
    const read = await readBody(
      req({ kind: 'stream', stream: endless }),
      limits(100, Date.now() + 20_000),
    );
    expect(read).toEqual({ ok: false, reason: 'too_large' });
    expect(pulled).toBeLessThan(10);
    expect(endless.destroyed).toBe(false);
    endless.destroy();
  });

  it('reads a stream that already ended as an empty body', async () => {
    const ended = new Readable({ read() {}, autoDestroy: false });
    ended.push(null);
    ended.resume();
    await new Promise((resolve) => ended.once('end', resolve));
    expect(ended.readableEnded).toBe(true);
    expect(
      await readBody(req({ kind: 'stream', stream: ended }), limits(100, Date.now() + 20_000)),
    ).toEqual({
      ok: true,
      text: '',
    });
  });

  it('answers unreadable as soon as the stream errors or closes mid-body', async () => {
    // Deadlines far off: only the stream's own events can end these reads.
    const far = () => limits(100, Date.now() + 20_000);
    const failing = new Readable({ read() {} });
    failing.push('{"a"');
    const failed = readBody(req({ kind: 'stream', stream: failing }), far());
    failing.destroy(new Error('socket hang up'));
    expect(await failed).toEqual({ ok: false, reason: 'unreadable' });
    const closing = new Readable({ read() {} });
    closing.push('{"a"');
    const closed = readBody(req({ kind: 'stream', stream: closing }), far());
    closing.destroy();
    expect(await closed).toEqual({ ok: false, reason: 'unreadable' });
  });

  it('leaves no listener behind once it has its answer', async () => {
    const whole = Readable.from([Buffer.from('{}')]);
    const read = await readBody(req({ kind: 'stream', stream: whole }), limits());
    const tooLarge = new Readable({ read() {} });
    tooLarge.push(Buffer.alloc(200));
    const refused = await readBody(req({ kind: 'stream', stream: tooLarge }), limits());
    expect([read, refused]).toEqual([
      { ok: true, text: '{}' },
      { ok: false, reason: 'too_large' },
    ]);
    expect(listeners(whole)).toEqual([0, 0, 0, 0]);
    expect(listeners(tooLarge)).toEqual([0, 0, 0, 0]);
  });
});

describe('followEmitter', () => {
  it('leaves no timer to fire at the deadline once it has its answer', async () => {
    const stream = new EventEmitter();
    let deadlineReached = 0;
    const outcomes = {
      chunk: () => undefined,
      end: () => 'ended',
      failed: 'failed',
      get timedOut() {
        deadlineReached++;
        return 'timed out';
      },
    };
    // A Node emitter, as a request is: its listener types are wider than the ones core names.
    const result = followEmitter(stream as unknown as Emitter, Date.now() + 20, outcomes);
    stream.emit('end');
    expect(await result).toBe('ended');
    // A later expiry: Node runs timers in expiry order, so a deadline timer left would fire first.
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(deadlineReached).toBe(0);
    expect(stream.eventNames()).toEqual([]);
  });
});

describe('readBody: sources that fail', () => {
  it('answers unreadable for a stream that errors, a locked stream and an iterator that throws', async () => {
    const failing = webStream([encode('{'), 'error']);
    expect(await readBody(req({ kind: 'stream', stream: failing }), limits())).toEqual({
      ok: false,
      reason: 'unreadable',
    });
    const locked = webStream([encode('{}')]);
    locked.getReader();
    expect(await readBody(req({ kind: 'stream', stream: locked }), limits())).toEqual({
      ok: false,
      reason: 'unreadable',
    });
    const throwing: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]() {
        throw new Error('cannot iterate');
      },
    };
    expect(await readBody(req({ kind: 'stream', stream: throwing }), limits())).toEqual({
      ok: false,
      reason: 'unreadable',
    });
    const destroyed = new Readable({ read() {} });
    destroyed.destroy(new Error('socket hang up'));
    expect(await readBody(req({ kind: 'stream', stream: destroyed }), limits())).toEqual({
      ok: false,
      reason: 'unreadable',
    });
    // Its error, emitted on the next tick, reaches a listener rather than crashing the process.
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(destroyed.listenerCount('error')).toBeGreaterThan(0);
  });

  it('answers unreadable for a body of an unknown kind', async () => {
    const odd = { kind: 'pending' } as unknown as DoorBody;
    expect(await readBody(req(odd), limits())).toEqual({ ok: false, reason: 'unreadable' });
  });
});

describe('bodyLeftOnWire', () => {
  const request = (
    body: DoorBody,
    headers: Record<string, string>,
  ): Pick<DoorRequest, 'body' | 'header'> => ({
    body,
    header: (name) => headers[name],
  });
  const stream = { kind: 'stream', stream: webStream([]) } as const;

  it('is true for an unread stream whose request declares a body', () => {
    expect(bodyLeftOnWire(request(stream, { 'content-length': '12' }), false)).toBe(true);
    expect(bodyLeftOnWire(request(stream, { 'transfer-encoding': 'chunked' }), false)).toBe(true);
  });

  it('is true for a body the framework reads whole until it is read', () => {
    const whole = { kind: 'whole', read: async () => encode('{}') } as const;
    expect(bodyLeftOnWire(request(whole, { 'content-length': '2' }), false)).toBe(true);
    expect(bodyLeftOnWire(request(whole, { 'content-length': '2' }), true)).toBe(false);
  });

  it('is false once read to its end, without a declared body, or for bodies read by the framework', () => {
    expect(bodyLeftOnWire(request(stream, { 'content-length': '12' }), true)).toBe(false);
    expect(bodyLeftOnWire(request(stream, {}), false)).toBe(false);
    expect(bodyLeftOnWire(request(stream, { 'content-length': '0' }), false)).toBe(false);
    expect(
      bodyLeftOnWire(request({ kind: 'bytes', value: 'x' }, { 'content-length': '1' }), false),
    ).toBe(false);
    expect(
      bodyLeftOnWire(request({ kind: 'parsed', value: {} }, { 'content-length': '2' }), false),
    ).toBe(false);
  });

  it('is true when the framework gave up on the body', () => {
    expect(bodyLeftOnWire(request({ kind: 'failed', reason: 'too_large' }, {}), true)).toBe(true);
  });
});
