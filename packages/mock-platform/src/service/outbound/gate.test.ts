import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../seed/demo-ids.js';
import {
  apiQuest,
  createQuest,
  createServicePlatform,
  message,
  type Reply,
  type ServicePlatform,
  startServer,
  type TestServer,
} from '../../service.testkit.js';
import type { ClaimResult } from '../claim-result.js';
import { createOutbound } from './outbound.js';

// Attacks of the fifth round on the outbound gate: one key holder's automatic endpoint checks
// starving members' claims, a delivery over a target's rate counted as a failed try, and the
// gate's waiting bound that no test held to.

// The per-target buckets refill by this clock: standing still, nothing refills.
const STANDING = { now: () => new Date('2025-06-01T12:00:00.000Z') };

const servers: TestServer[] = [];
let service: ServicePlatform | undefined;
let release: (() => void) | undefined;
afterEach(async () => {
  release?.();
  release = undefined;
  service?.platform.service.stop();
  await Promise.all(servers.splice(0).map((server) => server.close()));
  service = undefined;
});

/** An endpoint that holds every call until the test lets go (a silent target, on demand). */
async function heldEndpoint(answer: Reply = message(400, 'Not verified.')) {
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  release = open;
  const server = await startServer(async (): Promise<Reply> => {
    await gate;
    return answer;
  });
  servers.push(server);
  return server;
}

async function healthyEndpoint(status = 200) {
  const server = await startServer(() =>
    status === 200 ? message(200, 'Claimed.') : { status, body: '{}' },
  );
  servers.push(server);
  return server;
}

const tasks = (count: number, url: string) =>
  Array.from({ length: count }, () => ({
    type: 'api',
    settings: { endpoint: url, apiKey: 'task-key', identifications: ['email'] },
  }));

const MEMBER = '10000000-0000-4000-8000-000000000001';

const claim = (questId: string, userId = MEMBER) =>
  service!.call<ClaimResult>('POST', `/__mock/communities/demo/quests/${questId}/claims`, {
    userId,
  });

/** Resolves with `promise`'s value, or with `undefined` if it has not settled within `ms`. */
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, sleep(ms).then(() => undefined)]);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('members never wait behind automatic endpoint checks', () => {
  it('a claim to a healthy endpoint is answered while 3 quests of 20 tasks hold their checks', async () => {
    const silent = await heldEndpoint();
    const healthy = await healthyEndpoint();
    service = createServicePlatform({ outbound: { concurrency: 4, maxWaiting: 8 } });
    for (let quest = 0; quest < 3; quest += 1) {
      await createQuest(service, { ...apiQuest({}), tasks: tasks(20, `${silent.url}/verify`) });
    }
    const { id } = await createQuest(service, apiQuest({ endpoint: `${healthy.url}/verify` }));
    // Every check is still held by the silent endpoint: the claim must not wait for them.
    const result = await within(claim(id), 5_000);
    expect(result?.body).toMatchObject({ status: 'success', reason: 'claimed' });
    expect(service.platform.service.outbound.refusals()).toEqual([]);
  });

  it('runs one key holder’s checks one endpoint at a time', async () => {
    const silent = await heldEndpoint();
    service = createServicePlatform();
    await createQuest(service, { ...apiQuest({}), tasks: tasks(10, `${silent.url}/verify`) });
    await createQuest(service, { ...apiQuest({}), tasks: tasks(10, `${silent.url}/verify`) });
    // Let the checks that may start reach the endpoint.
    await sleep(300);
    const running = service.platform.service.endpointChecks
      .list()
      .filter((check) => check.state === 'running');
    expect(running).toHaveLength(1);
  });

  it('caps one key holder’s checks per community; the rest are recorded as skipped', async () => {
    const endpoint = await healthyEndpoint(400);
    service = createServicePlatform({ outbound: { checksPerKey: 5 } });
    await createQuest(service, { ...apiQuest({}), tasks: tasks(8, `${endpoint.url}/verify`) });
    await service.platform.service.idle();
    const checks = service.platform.service.endpointChecks.list();
    expect(checks).toHaveLength(8);
    const skipped = checks.filter((check) => check.state === 'skipped');
    expect(skipped).toHaveLength(3);
    for (const check of skipped) {
      expect(check.error).toMatch(/^skipped: /);
      expect(check.calls).toEqual([]);
    }
    expect(checks.filter((check) => check.state === 'done')).toHaveLength(5);
  });
});

describe('over a target’s rate, a claim or a delivery waits its turn', () => {
  it('claims: the second one waits for the bucket to refill and is verified', async () => {
    const endpoint = await healthyEndpoint();
    service = createServicePlatform({
      endpointChecks: false,
      outbound: { perTargetPerSecond: 5, burst: 1 },
    });
    const { id } = await createQuest(service, apiQuest({ endpoint: `${endpoint.url}/verify` }));
    const [first, second] = await Promise.all([
      claim(id, '10000000-0000-4000-8000-000000000001'),
      claim(id, '10000000-0000-4000-8000-000000000002'),
    ]);
    expect(first.body.status).toBe('success');
    expect(second.body.status).toBe('success');
    expect(endpoint.received).toHaveLength(2);
    expect(service.platform.service.outbound.refusals()).toEqual([]);
  });

  it('deliveries: the second one waits its turn and succeeds on its first try', async () => {
    const endpoint = await healthyEndpoint();
    service = createServicePlatform({
      endpointChecks: false,
      outbound: { perTargetPerSecond: 5, burst: 1 },
    });
    for (const id of Object.values(DEMO.webhooks)) {
      await service.call('DELETE', `/public/communities/demo/webhooks/${id}`);
    }
    await service.call('POST', '/public/communities/demo/webhooks', {
      name: 'receiver',
      uri: `${endpoint.url}/hooks`,
      active: true,
      events: ['JOINED_COMMUNITY'],
    });
    const join = (name: string) =>
      service!.call<{ deliveries: Array<{ status: string; tries: number }> }>(
        'POST',
        '/__mock/communities/demo/members',
        { name },
      );
    expect((await join('first')).body.deliveries).toMatchObject([{ status: 'success', tries: 1 }]);
    expect((await join('second')).body.deliveries).toMatchObject([{ status: 'success', tries: 1 }]);
    expect(endpoint.received).toHaveLength(2);
  });

  it('deliveries: one the rate cannot let through in time is refused, not a failed try', async () => {
    const endpoint = await healthyEndpoint();
    service = createServicePlatform({
      endpointChecks: false,
      webhooks: { timeoutMs: 200 },
      outbound: { perTargetPerSecond: 1, burst: 1, clock: STANDING },
    });
    for (const id of Object.values(DEMO.webhooks)) {
      await service.call('DELETE', `/public/communities/demo/webhooks/${id}`);
    }
    await service.call('POST', '/public/communities/demo/webhooks', {
      name: 'receiver',
      uri: `${endpoint.url}/hooks`,
      active: true,
      events: ['JOINED_COMMUNITY'],
    });
    const join = (name: string) =>
      service!.call<{ deliveries: Array<{ id: string; status: string; tries: number }> }>(
        'POST',
        '/__mock/communities/demo/members',
        { name },
      );
    await join('first');
    const second = (await join('second')).body.deliveries[0]!;
    expect(second).toMatchObject({ status: 'pending', tries: 0 });
    const detail = await service.call<{ attempts: Array<{ error: string | null }> }>(
      'GET',
      `/__mock/webhooks/deliveries/${second.id}`,
    );
    expect(detail.body.attempts[0]!.error).toMatch(/^not sent: /);
    expect(service.platform.service.outbound.refusals()).toMatchObject([
      { kind: 'delivery', target: new URL(endpoint.url).host },
    ]);
  });
});

describe('the gate’s waiting bound', () => {
  it('refuses, and records, a call past `maxWaiting` waiting calls', async () => {
    const silent = await heldEndpoint();
    const outbound = createOutbound({ concurrency: 1, maxWaiting: 1 });
    const answers = [1, 2, 3].map(() =>
      outbound.post('claim', `${silent.url}/verify`, { headers: {}, body: '{}', timeoutMs: 5_000 }),
    );
    const third = await within(answers[2]!, 2_000);
    expect(third?.error).toMatch(/^not sent: 1 outgoing calls are already waiting/);
    expect(outbound.refusals()).toMatchObject([{ kind: 'claim' }]);
    release?.();
    const [first, second] = await Promise.all(answers.slice(0, 2));
    expect(first!.status).toBe(400);
    expect(second!.status).toBe(400);
  });
});

describe('the delivery limiter (`webhooks.concurrency`)', () => {
  it('holds deliveries in flight to its size; the others wait, none refused', async () => {
    const receiver = await heldEndpoint({ status: 200, body: '{}' });
    service = createServicePlatform({ endpointChecks: false, webhooks: { concurrency: 2 } });
    for (const id of Object.values(DEMO.webhooks)) {
      await service.call('DELETE', `/public/communities/demo/webhooks/${id}`);
    }
    await service.call('POST', '/public/communities/demo/webhooks', {
      name: 'receiver',
      uri: `${receiver.url}/hooks`,
      active: true,
      events: ['JOINED_COMMUNITY'],
    });
    const joins = [1, 2, 3, 4, 5].map((n) =>
      service!.call<{ deliveries: Array<{ status: string; tries: number }> }>(
        'POST',
        '/__mock/communities/demo/members',
        { name: `member ${n}` },
      ),
    );
    await sleep(300);
    expect(receiver.received).toHaveLength(2);
    release?.();
    for (const join of await Promise.all(joins)) {
      expect(join.body.deliveries).toMatchObject([{ status: 'success', tries: 1 }]);
    }
    expect(receiver.received).toHaveLength(5);
  });
});
