import { describe, expect, it } from 'vitest';
import { createManualClock } from '../clock.js';
import { createMockPlatform } from '../platform.js';
import { webhookSettings } from './webhooks/deliveries.js';
import { WEBHOOK_RETRY_DELAYS_MS } from './webhooks/rules.js';

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
    [
      'a negative retry delay',
      { webhooks: { retryDelaysMs: [600_000, -1] } },
      /webhooks.retryDelaysMs/,
    ],
    ['a fractional delivery timeout', { webhooks: { timeoutMs: 1.5 } }, /webhooks.timeoutMs/],
    [
      'a retry delay that is not a number',
      { webhooks: { retryDelaysMs: [Number.NaN] } },
      /webhooks.retryDelaysMs/,
    ],
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

  it('take the clock, in manual mode when it is a ManualClock', async () => {
    const clock = createManualClock('2030-01-01T00:00:00Z');
    const platform = createMockPlatform({ clock, seed: false });
    expect(platform.clock).toBe(clock);
    expect(platform.service.scheduler.mode).toBe('manual');
    const report = await platform.service.advanceClock(1_000);
    expect(report).toEqual({ now: '2030-01-01T00:00:01.000Z', ran: 0, pending: 0 });
    const frozen = createMockPlatform({ clock: { now: () => new Date(0) }, seed: false });
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
  it('is the documented one: 15 retries from about 10 then 30 minutes, the curve extended', () => {
    const minutes = WEBHOOK_RETRY_DELAYS_MS.map((ms) => ms / 60_000);
    expect(minutes).toEqual([
      10, 30, 90, 270, 810, 1440, 1440, 1440, 1440, 1440, 1440, 1440, 1440, 1440, 1440,
    ]);
    // 10 d 20 h 10 min from the first try to the sixteenth, as the README says.
    expect(minutes.reduce((a, b) => a + b, 0)).toBe(10 * 1440 + 20 * 60 + 10);
    expect(webhookSettings()).toMatchObject({ maxTries: 16, timeoutMs: 5_000 });
    expect(webhookSettings({ retryDelaysMs: [] }).maxTries).toBe(1);
  });
});
