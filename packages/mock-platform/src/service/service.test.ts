import { describe, expect, it } from 'vitest';
import { createManualClock } from '../clock.js';
import { createMockPlatform } from '../platform.js';
import { retryDelayMs } from './webhooks/deliveries.js';

describe('service options', () => {
  it.each([
    ['a relative baseUrl', { baseUrl: '/mock' }, /baseUrl/],
    ['a baseUrl with a query', { baseUrl: 'https://mock.example/?a=1' }, /baseUrl/],
    ['an ftp baseUrl', { baseUrl: 'ftp://mock.example' }, /baseUrl/],
    ['a zero verification timeout', { verificationTimeoutMs: 0 }, /verificationTimeoutMs/],
    [
      'an unknown callback parameter',
      { connectCallbackParam: 'cb' as 'callback' },
      /connectCallbackParam/,
    ],
    ['zero tries', { webhooks: { maxTries: 0 } }, /webhooks.maxTries/],
    ['a fractional delivery timeout', { webhooks: { timeoutMs: 1.5 } }, /webhooks.timeoutMs/],
    ['a negative retry delay', { webhooks: { retryBaseMs: -1 } }, /webhooks.retryBaseMs/],
    ['zero concurrency', { webhooks: { concurrency: 0 } }, /webhooks.concurrency/],
  ])('refuse %s at start-up with a TypeError', (_name, options, pattern) => {
    expect(() => createMockPlatform({ seed: false, ...options })).toThrow(TypeError);
    expect(() => createMockPlatform({ seed: false, ...options })).toThrow(pattern);
  });

  it('accept a baseUrl with a path and drop its trailing slash', async () => {
    const platform = createMockPlatform({
      baseUrl: 'https://mock.example/base/',
      endpointChecks: false,
    });
    expect(platform.service.connect.callbackBase()).toBe(
      'https://mock.example/base/__mock/connect/callback',
    );
  });

  it('take the clock object over now, in manual mode when it is a ManualClock', async () => {
    const clock = createManualClock('2030-01-01T00:00:00Z');
    const platform = createMockPlatform({ clock, now: () => new Date(0), seed: false });
    expect(platform.clock).toBe(clock);
    expect(platform.service.scheduler.mode).toBe('manual');
    const report = await platform.service.advanceClock(1_000);
    expect(report).toEqual({ now: '2030-01-01T00:00:01.000Z', ran: 0, pending: 0 });
    const frozen = createMockPlatform({ now: () => new Date(0), seed: false });
    expect(frozen.service.scheduler.mode).toBe('timers');
    await expect(frozen.service.advanceClock(1)).rejects.toThrow(TypeError);
  });

  it('leave the control routes out with control: false', async () => {
    const platform = createMockPlatform({ control: false, seed: false });
    const answer = await platform.fetch(new Request('http://mock.test/__mock/clock'));
    expect(answer.status).toBe(404);
  });
});

describe('the retry schedule', () => {
  it('doubles from the base up to the cap', () => {
    const delays = Array.from({ length: 14 }, (_, n) => retryDelayMs(n + 1, 10_000, 3_600_000));
    expect(delays).toEqual([
      10_000, 20_000, 40_000, 80_000, 160_000, 320_000, 640_000, 1_280_000, 2_560_000, 3_600_000,
      3_600_000, 3_600_000, 3_600_000, 3_600_000,
    ]);
    // 6 h 25 min 10 s from the first try to the fifteenth, as the README says.
    expect(delays.reduce((a, b) => a + b, 0)).toBe(23_110_000);
  });
});
