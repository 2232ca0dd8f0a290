import { afterEach, describe, expect, it, vi } from 'vitest';
import { beforeDeadline, TIMED_OUT, timerUntil } from './deadline.js';

/** How many timers keep this process alive, as Node reports them. */
const refedTimers = () =>
  process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;

afterEach(() => {
  vi.useRealTimers();
});

describe('beforeDeadline', () => {
  it("resolves with the work's value, and clears its timer", async () => {
    vi.useFakeTimers();
    const result = beforeDeadline(Promise.resolve('done'), Date.now() + 1_000);
    expect(await result).toBe('done');
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects with the work's error, and clears its timer", async () => {
    vi.useFakeTimers();
    const failure = new Error('store down');
    await expect(beforeDeadline(Promise.reject(failure), Date.now() + 1_000)).rejects.toBe(failure);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('resolves TIMED_OUT when the deadline passes first, and not before', async () => {
    vi.useFakeTimers();
    let settled: unknown = 'pending';
    void beforeDeadline(new Promise(() => {}), Date.now() + 1_000).then((value) => {
      settled = value;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(TIMED_OUT);
  });

  it('resolves TIMED_OUT at once for a deadline already past', async () => {
    vi.useFakeTimers();
    const result = beforeDeadline(new Promise(() => {}), Date.now() - 5_000);
    await vi.advanceTimersByTimeAsync(0);
    expect(await result).toBe(TIMED_OUT);
  });
});

describe('timerUntil', () => {
  it('calls back at the deadline, and clearTimeout cancels it', async () => {
    vi.useFakeTimers();
    const fired = vi.fn();
    timerUntil(Date.now() + 50, fired);
    const cancelled = vi.fn();
    clearTimeout(timerUntil(Date.now() + 50, cancelled));
    await vi.advanceTimersByTimeAsync(49);
    expect(fired).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fired).toHaveBeenCalledTimes(1);
    expect(cancelled).not.toHaveBeenCalled();
  });

  it('fires on real time too', async () => {
    const started = Date.now();
    await new Promise<void>((resolve) => timerUntil(started + 30, resolve));
    expect(Date.now() - started).toBeGreaterThanOrEqual(29);
  });

  it('makes a timer where timers are numbers (Workers, Deno) and fires it', async () => {
    const realSetTimeout = globalThis.setTimeout;
    // Node's timer as its numeric id, which clearTimeout also takes: a web runtime's timer.
    const numeric = (callback: () => void, ms?: number) => Number(realSetTimeout(callback, ms));
    let fired = false;
    let made: unknown;
    // Swapped and restored before any other code runs: nothing is awaited in between.
    globalThis.setTimeout = numeric as unknown as typeof setTimeout;
    try {
      made = timerUntil(Date.now() + 10, () => {
        fired = true;
      });
    } finally {
      globalThis.setTimeout = realSetTimeout;
    }
    expect(typeof made).toBe('number');
    // A later expiry: Node runs timers in expiry order, so this one fires after the deadline's.
    await new Promise((resolve) => realSetTimeout(resolve, 50));
    expect(fired).toBe(true);
  });

  it('never holds the process open on its own (a plain setTimeout would)', async () => {
    const before = refedTimers();
    const plain = setTimeout(() => {}, 60_000);
    // The check can fail: a refed timer is counted.
    expect(refedTimers()).toBe(before + 1);
    clearTimeout(plain);
    const guard = timerUntil(Date.now() + 60_000, () => {});
    let settle = () => {};
    const race = beforeDeadline(
      new Promise<void>((resolve) => {
        settle = resolve;
      }),
      Date.now() + 60_000,
    );
    expect(refedTimers()).toBe(before);
    clearTimeout(guard);
    settle();
    await race;
  });
});
