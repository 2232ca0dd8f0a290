import { describe, expect, it, vi } from 'vitest';
import { createManualClock, systemClock } from '../../clock.js';
import { createScheduler, isManualClock } from './scheduler.js';

const T0 = Date.parse('2025-01-01T00:00:00.000Z');

describe('the manual scheduler', () => {
  it('runs due jobs in time order, each at its own time, then stops at the target', async () => {
    const clock = createManualClock(new Date(T0));
    const scheduler = createScheduler(clock, (error) => {
      throw error;
    });
    const ran: Array<[string, string]> = [];
    const job = (name: string) => async () => {
      ran.push([name, clock.now().toISOString()]);
    };
    scheduler.schedule('b', T0 + 2_000, job('b'));
    scheduler.schedule('a', T0 + 1_000, job('a'));
    scheduler.schedule('late', T0 + 10_000, job('late'));
    expect(scheduler.mode).toBe('manual');
    expect(scheduler.has('a')).toBe(true);

    const report = await scheduler.advance(5_000);
    expect(ran).toEqual([
      ['a', '2025-01-01T00:00:01.000Z'],
      ['b', '2025-01-01T00:00:02.000Z'],
    ]);
    expect(report).toEqual({ now: '2025-01-01T00:00:05.000Z', ran: 2, pending: 1 });
    expect(clock.now().getTime()).toBe(T0 + 5_000);
    expect(scheduler.has('a')).toBe(false);
  });

  it('runs jobs scheduled by jobs when they fall inside the window', async () => {
    const clock = createManualClock(new Date(T0));
    const scheduler = createScheduler(clock, () => {});
    const times: number[] = [];
    const retry = async () => {
      times.push(clock.now().getTime() - T0);
      if (times.length < 10)
        scheduler.schedule('retry', clock.now().getTime() + 1_000 * 2 ** times.length, retry);
    };
    scheduler.schedule('retry', T0 + 1_000, retry);
    const report = await scheduler.advance(20_000);
    expect(times).toEqual([1_000, 3_000, 7_000, 15_000]);
    expect(report.ran).toBe(4);
    expect(scheduler.pending()).toBe(1);
  });

  it('replaces a job of the same id, cancels, runs what is due now, and stops', async () => {
    const clock = createManualClock(new Date(T0));
    const scheduler = createScheduler(clock, () => {});
    const ran: string[] = [];
    scheduler.schedule('x', T0 + 1_000, async () => {
      ran.push('first');
    });
    scheduler.schedule('x', T0 + 1_000, async () => {
      ran.push('second');
    });
    scheduler.schedule('y', T0 + 1_000, async () => {
      ran.push('cancelled');
    });
    expect(scheduler.cancel('y')).toBe(true);
    expect(scheduler.cancel('y')).toBe(false);
    expect(await scheduler.runDue()).toBe(0);
    clock.advance(1_000);
    expect(await scheduler.runDue()).toBe(1);
    expect(ran).toEqual(['second']);

    scheduler.schedule('z', T0 + 5_000, async () => {
      ran.push('z');
    });
    scheduler.stop();
    await scheduler.advance(10_000);
    expect(ran).toEqual(['second']);
  });

  it('reports a throwing job and goes on; refuses a negative advance', async () => {
    const clock = createManualClock(new Date(T0));
    const errors: unknown[] = [];
    const scheduler = createScheduler(clock, (error) => errors.push(error));
    const ran: string[] = [];
    scheduler.schedule('bad', T0 + 1, async () => {
      throw new Error('job failed');
    });
    scheduler.schedule('good', T0 + 2, async () => {
      ran.push('good');
    });
    await scheduler.advance(10);
    expect(ran).toEqual(['good']);
    expect(errors).toHaveLength(1);
    await expect(scheduler.advance(-1)).rejects.toThrow(TypeError);
  });

  it('serializes concurrent advances', async () => {
    const clock = createManualClock(new Date(T0));
    const scheduler = createScheduler(clock, () => {});
    const [first, second] = await Promise.all([scheduler.advance(1_000), scheduler.advance(1_000)]);
    expect(first.now).toBe('2025-01-01T00:00:01.000Z');
    expect(second.now).toBe('2025-01-01T00:00:02.000Z');
  });
});

describe('the timer scheduler', () => {
  it('runs a job on a real timer and cannot advance the clock', async () => {
    expect(isManualClock(systemClock)).toBe(false);
    const scheduler = createScheduler(systemClock, () => {});
    expect(scheduler.mode).toBe('timers');
    let ran = false;
    scheduler.schedule('soon', Date.now() + 10, async () => {
      ran = true;
    });
    // A bound far past a busy machine's delays: it only costs time when the job never runs.
    await vi.waitFor(() => expect(ran).toBe(true), { timeout: 10_000, interval: 5 });
    expect(scheduler.pending()).toBe(0);
    await expect(scheduler.advance(1)).rejects.toThrow(/manual clock/);
  });

  it('drops its timers on stop and cancel', async () => {
    vi.useFakeTimers();
    try {
      const scheduler = createScheduler(systemClock, () => {});
      const ran: string[] = [];
      scheduler.schedule('a', Date.now() + 100, async () => {
        ran.push('a');
      });
      scheduler.schedule('b', Date.now() + 100, async () => {
        ran.push('b');
      });
      scheduler.cancel('a');
      await vi.advanceTimersByTimeAsync(200);
      expect(ran).toEqual(['b']);
      scheduler.schedule('c', Date.now() + 100, async () => {
        ran.push('c');
      });
      scheduler.stop();
      await vi.advanceTimersByTimeAsync(200);
      expect(ran).toEqual(['b']);
    } finally {
      vi.useRealTimers();
    }
  });
});
