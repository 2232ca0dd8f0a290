import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../clock.js';
import { createMockPlatform } from '../platform.js';
import { DEMO } from '../seed/demo-ids.js';
import { type MockServer, startMockServer } from '../server.js';

// The read-only control routes behind the dashboard, over real HTTP.

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer(
    createMockPlatform({ clock: createManualClock(), rateLimit: false, endpointChecks: false }),
    { port: 0 },
  );
});
afterAll(() => mock.close());

// The answers are read loosely: these tests look at a few fields of each.
// biome-ignore lint/suspicious/noExplicitAny: JSON of several shapes
const get = async (path: string): Promise<any> => {
  const response = await fetch(`${mock.url}${path}`);
  expect(response.status, path).toBe(200);
  return response.json();
};

describe('browse routes', () => {
  it('find members by id, any identifier (any case) or a name prefix', async () => {
    const byHandle = await get('/__mock/communities/demo/members?q=ADA.LOVELACE');
    expect(byHandle.map((user: { id: string }) => user.id)).toEqual([DEMO.users.admin]);
    const byEmail = await get('/__mock/communities/demo/members?q=ada%40example.com');
    expect(byEmail[0].id).toBe(DEMO.users.admin);
    const byId = await get(`/__mock/communities/demo/members?q=${DEMO.users.admin.toUpperCase()}`);
    expect(byId[0].id).toBe(DEMO.users.admin);
    const byName = await get('/__mock/communities/demo/members?q=member-1');
    expect(byName.length).toBeGreaterThan(1);
    expect(byName.length).toBeLessThanOrEqual(20);
    expect(await get('/__mock/communities/demo/members?q=nobody-at-all')).toEqual([]);
    expect((await fetch(`${mock.url}/__mock/communities/nope/members`)).status).toBe(404);
  });

  it('list the named demo members first without a query, marked demo', async () => {
    const members = await get('/__mock/communities/demo/members');
    expect(members.slice(0, 3).map((user: { name: string }) => user.name)).toEqual([
      'ada',
      'ben',
      'cleo',
    ]);
    expect(members[0].demo).toBe(true);
    expect(members.length).toBeLessThanOrEqual(20);
    const quests = await get('/__mock/communities/demo/quests');
    expect(quests.every((quest: { demo: boolean }) => quest.demo)).toBe(true);
  });

  it('list the quests with API tasks, and deliveries newest first with a status filter', async () => {
    const quests = await get('/__mock/communities/demo/quests');
    expect(quests.length).toBeGreaterThan(0);
    for (const quest of quests) expect(quest.tasks.length).toBeGreaterThan(0);
    expect(quests.map((quest: { id: string }) => quest.id)).not.toContain(DEMO.quests.deleted);
    const deliveries = await get('/__mock/webhooks/deliveries');
    const created = deliveries.map((record: { createdAt: string }) => record.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    const failed = await get('/__mock/webhooks/deliveries?status=failed');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((record: { status: string }) => record.status === 'failed')).toBe(true);
  });

  it('stream each verification call and each claim as a server-sent event', async () => {
    const controller = new AbortController();
    const response = await fetch(`${mock.url}/__mock/events`, { signal: controller.signal });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const until = async (pattern: RegExp) => {
      const deadline = Date.now() + 10_000;
      while (!pattern.test(text) && Date.now() < deadline) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
      }
      return pattern.test(text);
    };
    expect(await until(/event: ready/)).toBe(true);
    // A claim of a seeded quest calls an endpoint nobody listens on: a fault, still a call.
    const claim = await fetch(
      `${mock.url}/__mock/communities/demo/quests/${DEMO.quests.verifyEmail}/claims`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userId: DEMO.users.admin }),
      },
    );
    const { requestId } = (await claim.json()) as { requestId: string };
    expect(await until(new RegExp(`"requestId":"${requestId}"`))).toBe(true);
    expect(text).toMatch(/event: call\n/);
    // The claim itself follows its calls, under its requestId.
    expect(await until(new RegExp(`id: ${requestId}\n`))).toBe(true);
    expect(text).toMatch(/event: claim\n/);
    expect(text).not.toContain('demo-task-key');
    controller.abort();
  });
});
