import { Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import type { DoorBody } from '../adapter/door.js';
import { DRAIN_BYTES, DRAIN_MS, drainBody } from './drain.js';

const soon = () => Date.now() + 5_000;
const stream = (value: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): DoorBody => ({
  kind: 'stream',
  stream: value,
});
const MiB = new Uint8Array(1024 * 1024);

/** A Web stream of `count` chunks of 1 MiB, pulled one at a time; `pulled` counts them. */
function webChunks(count: number) {
  const counter = { pulled: 0 };
  const value = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (counter.pulled === count) return controller.close();
        counter.pulled++;
        controller.enqueue(MiB);
      },
    },
    { highWaterMark: 0 },
  );
  return { value, counter };
}

describe('drainBody', () => {
  it('reads a Node request to its end, and says so', async () => {
    const request = Readable.from([MiB, MiB]);
    expect(await drainBody({ body: stream(request) }, soon())).toBe(true);
    expect(request.readableEnded).toBe(true);
  });

  it('reads a Web stream nobody holds to its end, and says so', async () => {
    const { value, counter } = webChunks(3);
    expect(await drainBody({ body: stream(value) }, soon())).toBe(true);
    expect(counter.pulled).toBe(3);
  });

  it('drains the request a framework failed on, when the failure names it', async () => {
    // body-parser refuses a charset on the headers and reads nothing: the body is all on the wire.
    const unread = Readable.from([MiB, MiB]);
    const refused = { kind: 'failed', reason: 'unreadable', stream: unread } as const;
    expect(await drainBody({ body: refused }, soon())).toBe(true);
    expect(unread.readableEnded).toBe(true);
    // One the parser read off before it failed has nothing left on the wire.
    const readOff = Readable.from([MiB]);
    readOff.resume();
    await new Promise((resolve) => readOff.once('end', resolve));
    const tooLarge = { kind: 'failed', reason: 'too_large', stream: readOff } as const;
    expect(await drainBody({ body: tooLarge }, soon())).toBe(true);
    // A Web stream the framework failed on is drained the same way.
    const { value, counter } = webChunks(2);
    const web = { kind: 'failed', reason: 'unreadable', stream: value } as const;
    expect(await drainBody({ body: web }, soon())).toBe(true);
    expect(counter.pulled).toBe(2);
  });

  it(`stops after ${DRAIN_BYTES} bytes of a body that goes on`, async () => {
    const { value, counter } = webChunks(1000);
    expect(await drainBody({ body: stream(value) }, soon())).toBe(false);
    expect(counter.pulled).toBe(DRAIN_BYTES / MiB.byteLength + 1);

    // An endless Node request, a chunk a turn as a socket gives them: the drain gives up on it.
    const node = new Readable({
      read() {
        setImmediate(() => this.push(MiB));
      },
    });
    expect(await drainBody({ body: stream(node) }, soon())).toBe(false);
    node.destroy();
  });

  it('stops at the deadline, or after DRAIN_MS, on a body that stalls', async () => {
    // A controlled clock: which bound ended the drain, whatever the machine's speed.
    vi.useFakeTimers();
    try {
      const settledAt = async (drain: Promise<boolean>, bound: number) => {
        let result: boolean | undefined;
        void drain.then((value) => {
          result = value;
        });
        await vi.advanceTimersByTimeAsync(bound - 1);
        expect(result).toBeUndefined();
        await vi.advanceTimersByTimeAsync(1);
        expect(result).toBe(false);
      };
      const stalled = new Readable({ read() {} });
      await settledAt(drainBody({ body: stream(stalled) }, Date.now() + 50), 50);

      const web = new ReadableStream<Uint8Array>({ pull() {} }, { highWaterMark: 0 });
      await settledAt(drainBody({ body: stream(web) }, Date.now() + 10 * DRAIN_MS), DRAIN_MS);
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not wait once the deadline passed', async () => {
    expect(await drainBody({ body: stream(Readable.from([MiB])) }, Date.now() - 1)).toBe(false);
  });

  it('leaves alone what it cannot drain without buffering or taking over', async () => {
    // A framework's own read (as Hono's arrayBuffer() behind an iterable) would buffer it whole.
    let iterated = false;
    const iterable: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]() {
        iterated = true;
        return { next: async () => ({ done: true, value: undefined }) };
      },
    };
    expect(await drainBody({ body: stream(iterable) }, soon())).toBe(false);
    expect(iterated).toBe(false);
    // A stream a reader holds is somebody else's.
    const { value } = webChunks(1);
    const reader = value.getReader();
    expect(await drainBody({ body: stream(value) }, soon())).toBe(false);
    reader.releaseLock();
    // A body the framework failed on that names no stream: nothing core could drain.
    expect(await drainBody({ body: { kind: 'failed', reason: 'too_large' } }, soon())).toBe(false);
    // One the framework reads whole would be buffered to drain it: it is not even asked for.
    let reads = 0;
    const whole = { kind: 'whole', read: async () => new Uint8Array(reads++) } as const;
    expect(await drainBody({ body: whole }, soon())).toBe(false);
    expect(reads).toBe(0);
  });

  it('says false for a Node request that failed or was destroyed, and never throws', async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('connection reset'));
      },
    });
    expect(await drainBody({ body: stream(failing) }, soon())).toBe(false);
    const destroyed = new Readable({ read() {} });
    destroyed.destroy();
    expect(await drainBody({ body: stream(destroyed) }, soon())).toBe(false);
  });
});
