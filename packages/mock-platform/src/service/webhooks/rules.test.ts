// The platform's documented delivery rules (platform-docs-notes.md §1), with the default
// settings, on the test clock, against real receivers on loopback.

import { readFileSync } from 'node:fs';
import type { WebhookDeliveryRecord } from '@questkit/core/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../seed/demo-ids.js';
import {
  createServicePlatform,
  type Reply,
  type ServicePlatform,
  startServer,
  type TestServer,
} from '../../service.testkit.js';
import type { DeliveryAttempt } from './deliveries.js';
import {
  retryScheduleTable,
  WEBHOOK_MAX_ANSWER_BYTES,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_SUCCESS_STATUS,
  WEBHOOK_TIMEOUT_MS,
} from './rules.js';

const START = Date.parse('2025-06-01T12:00:00.000Z');
const iso = (ms: number) => new Date(START + ms).toISOString();

let receiver: TestServer;
let mock: ServicePlatform;
/** What the receiver at each path answers; `recovering` answers 201 until told otherwise. */
let recovered = false;
const REPLIES: Record<string, () => Reply> = {
  '/ok': () => ({ status: 200, body: '{}' }),
  '/created': () => ({ status: 201, body: '{}' }),
  '/no-content': () => ({ status: 204 }),
  '/exact-body': () => ({ status: 200, body: 'x'.repeat(WEBHOOK_MAX_ANSWER_BYTES) }),
  '/large-body': () => ({ status: 200, body: 'x'.repeat(WEBHOOK_MAX_ANSWER_BYTES + 1) }),
  '/slow': () => ({ status: 200, body: '{}', delayMs: WEBHOOK_TIMEOUT_MS + 700 }),
  '/recovering': () => (recovered ? { status: 200, body: '{}' } : { status: 201, body: '{}' }),
};

beforeEach(async () => {
  recovered = false;
  receiver = await startServer((request) => (REPLIES[request.path] ?? REPLIES['/ok']!)());
  // The documented defaults: no webhook options.
  mock = createServicePlatform({ endpointChecks: false });
  for (const id of Object.values(DEMO.webhooks)) mock.platform.store.webhooks.delete(id);
});

afterEach(async () => {
  mock.platform.service.stop();
  expect(mock.errors).toEqual([]);
  await receiver.close();
});

async function addWebhook(path: string): Promise<string> {
  const created = await mock.call<{ id: string }>('POST', '/public/communities/demo/webhooks', {
    name: `receiver ${path}`,
    uri: `${receiver.url}${path}`,
    active: true,
    events: ['JOINED_COMMUNITY'],
  });
  expect(created.status).toBe(200);
  return created.body.id;
}

async function join() {
  const joined = await mock.call<{ deliveries: WebhookDeliveryRecord[] }>(
    'POST',
    '/__mock/communities/demo/members',
    { name: 'rules' },
  );
  expect(joined.status).toBe(200);
  return joined.body.deliveries;
}

const advance = async (ms: number) =>
  (
    await mock.call<{ now: string; ran: number; pending: number }>(
      'POST',
      '/__mock/clock/advance',
      {
        ms,
      },
    )
  ).body;

const detail = async (id: string) =>
  (
    await mock.call<{ status: string; tries: number; attempts: DeliveryAttempt[] }>(
      'GET',
      `/__mock/webhooks/deliveries/${id}`,
    )
  ).body;

describe('a webhook delivery, as the platform documents it', () => {
  it(`succeeds only on exactly ${WEBHOOK_SUCCESS_STATUS}, within ${WEBHOOK_TIMEOUT_MS} ms, with at most ${WEBHOOK_MAX_ANSWER_BYTES} bytes`, async () => {
    const paths = ['/ok', '/exact-body', '/created', '/no-content', '/large-body', '/slow'];
    const ids = new Map<string, string>();
    for (const path of paths) ids.set(await addWebhook(path), path);
    const deliveries = await join();
    const byPath = Object.fromEntries(deliveries.map((d) => [ids.get(d.webhookId), d]));
    expect(Object.keys(byPath).sort()).toEqual([...paths].sort());

    for (const path of ['/ok', '/exact-body']) {
      expect(byPath[path], path).toMatchObject({ status: 'success', tries: 1 });
    }
    // Every failure is retried after the first step of the table.
    for (const path of ['/created', '/no-content', '/large-body', '/slow']) {
      expect(byPath[path], path).toMatchObject({
        status: 'failed',
        tries: 1,
        retryAt: iso(WEBHOOK_RETRY_DELAYS_MS[0]!),
      });
    }
    const reason = async (path: string) => (await detail(byPath[path]!.id)).attempts[0]!;
    expect(await reason('/created')).toMatchObject({
      status: 201,
      ok: false,
      error: 'answered 201; a delivery needs exactly 200',
    });
    expect(await reason('/no-content')).toMatchObject({ status: 204, ok: false });
    expect(await reason('/large-body')).toMatchObject({
      status: 200,
      ok: false,
      error: `answered 200 with a body over ${WEBHOOK_MAX_ANSWER_BYTES} bytes`,
    });
    expect(await reason('/slow')).toMatchObject({
      status: null,
      ok: false,
      error: `no complete answer within ${WEBHOOK_TIMEOUT_MS} ms`,
    });
  }, 30_000);

  it('is retried by the documented table, 15 times, then exhausted', async () => {
    const hook = await addWebhook('/created');
    const [delivery] = await join();
    // Nothing before the first step of the table is due.
    expect(await advance(WEBHOOK_RETRY_DELAYS_MS[0]! - 1)).toMatchObject({ ran: 0, pending: 1 });
    expect(receiver.received).toHaveLength(1);
    const total = WEBHOOK_RETRY_DELAYS_MS.reduce((sum, ms) => sum + ms, 0);
    // The rest of the whole schedule in one advance: the scheduler stops at every due time.
    expect(await advance(total)).toMatchObject({ ran: 15, pending: 0 });
    expect(receiver.received).toHaveLength(16);

    const done = await detail(delivery!.id);
    expect(done).toMatchObject({ status: 'exhausted', tries: 16 });
    const expectedTimes = [0];
    for (const ms of WEBHOOK_RETRY_DELAYS_MS) expectedTimes.push(expectedTimes.at(-1)! + ms);
    expect(done.attempts.map((attempt) => attempt.at)).toEqual(expectedTimes.map(iso));
    const webhooks = await mock.call<{ items: Array<{ id: string; exhausted: number }> }>(
      'GET',
      '/public/communities/demo/webhooks',
    );
    expect(webhooks.body.items.find((w) => w.id === hook)).toMatchObject({ exhausted: 1 });
  });

  it('succeeds on the retry after the receiver starts answering 200', async () => {
    await addWebhook('/recovering');
    const [delivery] = await join();
    const [first, second] = WEBHOOK_RETRY_DELAYS_MS as [number, number];
    expect(await advance(first)).toMatchObject({ ran: 1, pending: 1 });
    recovered = true;
    expect(await advance(second)).toMatchObject({ ran: 1, pending: 0 });
    const done = await detail(delivery!.id);
    expect(done).toMatchObject({ status: 'success', tries: 3 });
    expect(done.attempts.map((a) => [a.at, a.status, a.ok])).toEqual([
      [iso(0), 201, false],
      [iso(first), 201, false],
      [iso(first + second), 200, true],
    ]);
  });
});

describe('the retry table', () => {
  it('is the one the README shows', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const table = retryScheduleTable();
    expect(readme).toContain(table);
    expect(table.split('\n')).toHaveLength(WEBHOOK_RETRY_DELAYS_MS.length + 3);
    expect(table).toContain('| 16 | 1 d | 10 d 20 h 10 min |');
  });
});
