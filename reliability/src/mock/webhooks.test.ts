/**
 * Webhook deliveries to receivers that are down, slower than the time limit, answer 5xx or a
 * redirect, send a huge body, reset the connection, fail a few times then recover, or just work.
 * The mock runs on a manual clock, so the whole retry schedule is walked by advancing it; each
 * delivery must end as its receiver calls for, after exactly the tries the schedule allows, at
 * exactly the times of the documented retry table, with no delivery lost or duplicated and
 * counters equal to records. A success is exactly 200 within the limit with a small body.
 */
import { DEMO, WEBHOOK_RETRY_DELAYS_MS } from '@questkit/mock-platform';
import { describe, expect, it } from 'vitest';
import { FULL } from '../config.js';
import {
  type Action,
  closedPort,
  type Received,
  startEndpoint,
} from '../harness/local-endpoint.js';
import { startMock } from '../harness/server-process.js';
import { mb, n, record } from '../report/record.js';
import { deliveryCounts, walkWebhooks } from './walk.js';

const RW = DEMO.apiKeys.readWrite;
const EVENTS = FULL ? 60 : 8;
/** CI's per-target burst: its 80 first tries cross it, as the full run's 600 cross 200. */
const CI_BURST = 20;
/**
 * Full run: the platform's own 5 s limit and the whole documented table (15 retries over 10 days);
 * CI: the same logic, scaled down to the table's first 4 steps.
 */
const TIMEOUT_MS = FULL ? 5_000 : 1_000;
const RETRY_DELAYS_MS = FULL ? [...WEBHOOK_RETRY_DELAYS_MS] : WEBHOOK_RETRY_DELAYS_MS.slice(0, 4);
const MAX_TRIES = RETRY_DELAYS_MS.length + 1;
const DAY_MS = 24 * 3_600_000;
const HUGE_BYTES = 8 * 1024 * 1024;
const FLAKY_FAILURES = 2;
/**
 * Peak memory the mock may add. Buffering the huge answers would take 64 deliveries in flight ×
 * 8 MB; reading none of them leaves only the churn of the calls.
 */
const PEAK_RSS_LIMIT = 128 * 1024 * 1024;

type Kind =
  | 'healthy'
  | 'flaky'
  | 'down'
  | 'slow'
  | '5xx'
  | 'redirect'
  | 'huge-500'
  | 'huge-200'
  | 'reset'
  | 'created';

/** What each receiver does, the final status, and how many tries (and receipts) that takes. */
const KINDS: Record<Kind, { status: 'success' | 'exhausted'; tries: number; receipts: number }> = {
  healthy: { status: 'success', tries: 1, receipts: 1 },
  flaky: { status: 'success', tries: FLAKY_FAILURES + 1, receipts: FLAKY_FAILURES + 1 },
  down: { status: 'exhausted', tries: MAX_TRIES, receipts: 0 },
  slow: { status: 'exhausted', tries: MAX_TRIES, receipts: MAX_TRIES },
  '5xx': { status: 'exhausted', tries: MAX_TRIES, receipts: MAX_TRIES },
  redirect: { status: 'exhausted', tries: MAX_TRIES, receipts: MAX_TRIES },
  'huge-500': { status: 'exhausted', tries: MAX_TRIES, receipts: MAX_TRIES },
  // A body over 5,000 bytes is a failure even with 200, as the platform documents it.
  'huge-200': { status: 'exhausted', tries: MAX_TRIES, receipts: MAX_TRIES },
  // 201 is not 200: a failure.
  created: { status: 'exhausted', tries: MAX_TRIES, receipts: MAX_TRIES },
  reset: { status: 'exhausted', tries: MAX_TRIES, receipts: MAX_TRIES },
};

/** What the receiver at each path does; `flaky` answers by how often it saw the event. */
function receiver(request: Received, received: readonly Received[]): Action {
  const kind = request.path.slice(1) as Kind;
  const eventId = (JSON.parse(request.body) as { id: string }).id;
  switch (kind) {
    case 'healthy':
      return { kind: 'answer', status: 200, body: '{}' };
    case 'flaky': {
      const seen = received.filter(
        (r) => r.path === request.path && r.body.includes(eventId),
      ).length;
      return seen <= FLAKY_FAILURES
        ? { kind: 'answer', status: 503, body: '{}' }
        : { kind: 'answer', status: 200, body: '{}' };
    }
    case 'slow':
      return { kind: 'answer', status: 200, body: '{}', delayMs: TIMEOUT_MS + 500 };
    case '5xx':
      return {
        kind: 'answer',
        status: [500, 502, 503][received.length % 3]!,
        body: '{"error":"down"}',
      };
    case 'redirect':
      return { kind: 'answer', status: 302, body: '', contentType: 'text/plain' };
    case 'huge-500':
      return { kind: 'huge', status: 500, bytes: HUGE_BYTES };
    case 'huge-200':
      return { kind: 'huge', status: 200, bytes: HUGE_BYTES };
    case 'reset':
      return { kind: 'reset' };
    case 'created':
      return { kind: 'answer', status: 201, body: '{}' };
    default:
      return { kind: 'answer', status: 404, body: '{}' };
  }
}

describe('webhook deliveries to failing receivers', () => {
  it(`deliver ${EVENTS} events to ${Object.keys(KINDS).length} kinds of receivers by the schedule, losing and duplicating nothing`, async () => {
    const endpoint = await startEndpoint(receiver);
    const mirror = endpoint.received;
    const downPort = await closedPort();
    const mock = await startMock({
      rateLimit: false,
      seedUsers: 20,
      manualClock: true,
      webhooks: { retryDelaysMs: RETRY_DELAYS_MS, timeoutMs: TIMEOUT_MS },
      // Every receiver on one target (`host:port`), past its burst: the full run's 600 first
      // tries against the default burst of 200, CI's 80 against 20. Those over it must wait
      // their turn (100 a second, within the delivery's limit), never count as a failed try.
      ...(FULL ? {} : { outbound: { burst: CI_BURST } }),
    });
    const origin = `http://127.0.0.1:${mock.port}`;
    const headers = { 'x-api-key': RW, 'content-type': 'application/json' };
    const violations: string[] = [];
    try {
      const webhookOf = new Map<Kind, { id: string; secret?: string }>();
      for (const kind of Object.keys(KINDS) as Kind[]) {
        const uri =
          kind === 'down' ? `http://127.0.0.1:${downPort}/down` : `${endpoint.url}/${kind}`;
        const response = await fetch(`${origin}/public/communities/demo/webhooks`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            name: `receiver ${kind}`,
            uri,
            active: true,
            events: ['QUEST_CLAIMED'],
          }),
        });
        expect(response.status).toBe(200);
        webhookOf.set(kind, { id: ((await response.json()) as { id: string }).id });
      }
      const before = await mock.stats({ gc: true });

      // Fire the events; each answer comes once every delivery has had its first try.
      const events = await Promise.all(
        Array.from({ length: EVENTS }, async (_, n) => {
          const response = await fetch(`${origin}/__mock/communities/demo/events`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ type: 'QUEST_CLAIMED', data: { n } }),
          });
          return ((await response.json()) as { event: { id: string } }).event.id;
        }),
      );
      // Walk the schedule: a day at a time until nothing is pending (bounded: 11 days hold it).
      let advances = 0;
      for (; advances < 16; advances++) {
        const clock = (await (await fetch(`${origin}/__mock/clock`)).json()) as {
          pendingRetries: number;
        };
        if (clock.pendingRetries === 0) break;
        const advanced = await fetch(`${origin}/__mock/clock/advance`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ms: DAY_MS }),
        });
        if (advanced.status !== 200) violations.push(`clock advance: ${advanced.status}`);
      }
      const after = await mock.stats();

      // Records: one per event and webhook, ending as the receiver calls for.
      const webhooks = await walkWebhooks(origin, RW, 100);
      let deliveries = 0;
      let tries = 0;
      for (const [kind, expected] of Object.entries(KINDS) as [Kind, (typeof KINDS)[Kind]][]) {
        const webhookId = webhookOf.get(kind)!.id;
        const { records, byStatus } = await deliveryCounts(origin, RW, webhookId);
        deliveries += records.length;
        if (records.length !== EVENTS)
          violations.push(`${kind}: ${records.length} records for ${EVENTS} events`);
        const listed = webhooks.find((webhook) => webhook.id === webhookId);
        for (const status of ['success', 'failed', 'exhausted'] as const) {
          if ((listed?.[status] ?? -1) !== (byStatus[status] ?? 0)) {
            violations.push(
              `${kind}: counter ${status} ${listed?.[status]}, records ${byStatus[status] ?? 0}`,
            );
          }
        }
        const eventIds = new Set<string>();
        for (const item of records) {
          tries += item.tries;
          if (item.status !== expected.status || item.tries !== expected.tries) {
            violations.push(
              `${kind} delivery ${item.id}: ${item.status} after ${item.tries} tries`,
            );
          }
          // The tries happened exactly when the schedule says, on the platform clock.
          const detail = (await (
            await fetch(`${origin}/__mock/webhooks/deliveries/${item.id}`)
          ).json()) as {
            payload: { id: string };
            attempts: { try: number; at: string }[];
            retryScheduled: boolean;
          };
          eventIds.add(detail.payload.id);
          if (detail.retryScheduled)
            violations.push(`${kind} delivery ${item.id}: a retry still scheduled`);
          if (detail.attempts.length !== expected.tries) {
            violations.push(
              `${kind} delivery ${item.id}: ${detail.attempts.length} attempts logged`,
            );
          }
          for (let i = 1; i < detail.attempts.length; i++) {
            const gap = Date.parse(detail.attempts[i]!.at) - Date.parse(detail.attempts[i - 1]!.at);
            const due = RETRY_DELAYS_MS[i - 1];
            if (gap !== due) {
              violations.push(
                `${kind} delivery ${item.id}: try ${i + 1} ${gap} ms after try ${i}, due ${due}`,
              );
              break;
            }
          }
        }
        if (eventIds.size !== EVENTS || ![...eventIds].every((id) => events.includes(id))) {
          violations.push(`${kind}: deliveries cover ${eventIds.size} of the ${EVENTS} events`);
        }
        // What reached the receiver: each event exactly as many times as it was tried.
        for (const eventId of events) {
          const got = mirror.filter((r) => r.path === `/${kind}` && r.body.includes(eventId));
          if (got.length !== expected.receipts) {
            violations.push(
              `${kind}: event ${eventId} received ${got.length} times, expected ${expected.receipts}`,
            );
          }
          for (const receipt of got) {
            const body = JSON.parse(receipt.body) as {
              id: string;
              type: string;
              secret?: unknown;
              data?: { n?: unknown };
            };
            if (
              body.type !== 'QUEST_CLAIMED' ||
              typeof body.secret !== 'string' ||
              typeof body.data?.n !== 'number'
            ) {
              violations.push(`${kind}: malformed delivery body ${receipt.body.slice(0, 100)}`);
            }
          }
        }
      }
      const clock = (await (await fetch(`${origin}/__mock/clock`)).json()) as {
        pendingRetries: number;
      };
      if (clock.pendingRetries !== 0)
        violations.push(`${clock.pendingRetries} retries still pending after ${advances} days`);
      const crash = mock.crash();
      if (crash) violations.push(`mock crashed: ${JSON.stringify(crash)}`);
      for (const event of mock.onErrors)
        violations.push(`internal error: ${event.text.slice(0, 200)}`);
      if (after.unhandledRejections > 0) violations.push('unhandled rejections');
      const growth = Math.max(0, after.maxRss - before.maxRss);
      if (growth > PEAK_RSS_LIMIT) violations.push(`mock peak RSS grew by ${mb(growth)}`);

      const failing = Object.values(KINDS).filter((kind) => kind.status === 'exhausted').length;
      record({
        area: 'Mock platform: webhook faults',
        subject: `${EVENTS} events × ${Object.keys(KINDS).length} receivers on one target (burst ${FULL ? 200 : CI_BURST}), ${MAX_TRIES} tries, ${TIMEOUT_MS} ms limit`,
        requests: mirror.length,
        faults: EVENTS * (failing + 1),
        held:
          `receivers down, slower than ${TIMEOUT_MS} ms, 5xx, 201, redirecting, resetting, sending ${mb(HUGE_BYTES)} ` +
          `(with 500 and with 200), flaky then fine, healthy: ${n(deliveries)} deliveries, ${n(tries)} tries over a ` +
          `${advances}-day schedule walked on the manual clock; every delivery once per event, success or exhausted ` +
          `after exactly ${MAX_TRIES} tries as its receiver calls for, each retry at the documented table's delay to the ms, ` +
          `receipts equal to tries, counters equal records; mock peak RSS +${mb(growth)} (limit ${mb(PEAK_RSS_LIMIT)})`,
        violations: violations.length,
      });
    } finally {
      await mock.close();
      await endpoint.close();
    }
    expect(violations.slice(0, 30)).toEqual([]);
  });
});
