// A refused delivery's attempt carries the explanation of the delivery format (no signature
// header, the secret in the body, the event under `data`): the same sentence, from the same core
// function, that `questkit check-webhook` gives for the same receiver.

import { checkWebhookReceiver } from '@questkit/conformance';
import { explainRefusedDelivery, type WebhookDeliveryRecord } from '@questkit/core/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../seed/demo-ids.js';
import {
  createServicePlatform,
  type Received,
  type Reply,
  type ServicePlatform,
  startServer,
  type TestServer,
} from '../../service.testkit.js';
import type { DeliveryAttempt } from './deliveries.js';

const SECRET = 'explanation-test-secret';

/** What real receivers answer: an HMAC check, fields read at the top level, a crash, a correct one. */
const REPLIES: Record<string, (request: Received) => Reply> = {
  '/hmac': () => ({ status: 401, body: '{"error":"Missing X-Signature header"}' }),
  '/top-level': (request) =>
    (request.json as { userId?: unknown }).userId === undefined
      ? { status: 400, body: '{"error":"userId is required"}' }
      : { status: 200, body: '{}' },
  '/crash': () => ({ status: 500, body: 'Internal Server Error' }),
  '/ok': (request) => ({
    status: (request.json as { secret?: unknown }).secret === SECRET ? 200 : 401,
    body: '{}',
  }),
};

let receiver: TestServer;
let mock: ServicePlatform;

beforeEach(async () => {
  receiver = await startServer((request) => REPLIES[request.path]!(request));
  mock = createServicePlatform({ endpointChecks: false });
  for (const id of Object.values(DEMO.webhooks)) mock.platform.store.webhooks.delete(id);
});

afterEach(async () => {
  mock.platform.service.stop();
  expect(mock.errors).toEqual([]);
  await receiver.close();
});

async function firstAttempt(path: string): Promise<DeliveryAttempt> {
  const created = await mock.call<{ id: string }>('POST', '/public/communities/demo/webhooks', {
    name: `receiver ${path}`,
    uri: `${receiver.url}${path}`,
    active: true,
    events: ['JOINED_COMMUNITY'],
  });
  expect(created.status).toBe(200);
  const webhook = mock.platform.store.webhooks.get(created.body.id)!;
  mock.platform.store.webhooks.update(webhook.id, { secret: SECRET });
  const joined = await mock.call<{ deliveries: WebhookDeliveryRecord[] }>(
    'POST',
    '/__mock/communities/demo/members',
    { name: 'explained' },
  );
  const [delivery] = joined.body.deliveries;
  const detail = await mock.call<{ attempts: DeliveryAttempt[] }>(
    'GET',
    `/__mock/webhooks/deliveries/${delivery!.id}`,
  );
  mock.platform.store.webhooks.delete(webhook.id);
  return detail.body.attempts[0]!;
}

describe('a refused delivery explains the format', () => {
  it.each([
    ['/hmac', 401, /^Deliveries carry no signature header/],
    ['/top-level', 400, /^The body is the event .* sit under "data"/],
  ] as const)('%s: the attempt says it, as check-webhook does', async (path, status, lead) => {
    const attempt = await firstAttempt(path);
    expect(attempt).toMatchObject({ status, ok: false });
    expect(attempt.explanation).toMatch(lead);
    expect(attempt.explanation).toBe(explainRefusedDelivery({ status }));

    const report = await checkWebhookReceiver({ url: `${receiver.url}${path}`, secret: SECRET });
    expect(report.summary.verdict).toBe('fail');
    expect(report.checks[0]!.findings[0]!.message).toContain(attempt.explanation!);
  });

  it('says nothing of the format for a crash or a success', async () => {
    expect((await firstAttempt('/crash')).explanation).toBeNull();
    const ok = await firstAttempt('/ok');
    expect(ok).toMatchObject({ status: 200, ok: true, explanation: null });
  });
});
