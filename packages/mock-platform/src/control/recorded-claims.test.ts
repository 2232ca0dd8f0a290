import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../clock.js';
import { createMockPlatform } from '../platform.js';
import { DEMO } from '../seed/demo-ids.js';
import { type MockServer, startMockServer } from '../server.js';
import { claimOutcome } from '../service/recorded-claims.js';

// The journal of claims over real HTTP: one record per claim, refusals before any call included,
// and the replay of a recorded call through the mock.

let mock: MockServer;
let endpoint: Server;
let endpointUrl: string;
/** An address nobody listens on: a port taken then released. */
let deadUrl: string;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

// biome-ignore lint/suspicious/noExplicitAny: JSON of several shapes, read loosely
async function call(method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${mock.url}${path}`, {
    method,
    headers: { 'x-api-key': DEMO.apiKeys.readWrite, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : JSON.parse(text) };
}

async function createQuest(name: string, url: string, apiKey = 'journal-key'): Promise<string> {
  const created = await call('POST', '/public/communities/demo/quests', {
    categoryId: DEMO.modules.community,
    name,
    published: true,
    recurrence: 'daily',
    conditionOperator: 'AND',
    tasks: [{ type: 'api', settings: { endpoint: url, apiKey } }],
  });
  expect(created.status).toBe(200);
  return created.body.id;
}

const claim = (questId: string, userId: string) =>
  call('POST', `/__mock/communities/demo/quests/${questId}/claims`, { userId });

beforeAll(async () => {
  mock = await startMockServer(
    createMockPlatform({ clock: createManualClock(), rateLimit: false, endpointChecks: false }),
    { port: 0 },
  );
  // Answers 200 only with the task's key, so a replay proves it sent the key.
  endpoint = createServer((request, response) => {
    request.resume();
    const ok = request.headers['x-api-key'] === 'journal-key';
    response.writeHead(ok ? 200 : 400, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ message: ok ? 'Seen you.' : 'Wrong key.' }));
  });
  endpointUrl = await listen(endpoint);
  const closed = createServer();
  deadUrl = await listen(closed);
  await new Promise((resolve) => closed.close(resolve));
});

afterAll(async () => {
  endpoint?.closeAllConnections();
  await new Promise((resolve) => endpoint?.close(resolve));
  await mock?.close();
});

describe('the journal of claims', () => {
  it('names an outcome for every reason', () => {
    expect(claimOutcome('claimed')).toBe('claimed');
    expect(claimOutcome('not-verified')).toBe('not-verified');
    expect(claimOutcome('endpoint-fault')).toBe('endpoint-fault');
    expect(claimOutcome('already-claimed')).toBe('refused');
    expect(claimOutcome('account-not-linked')).toBe('refused');
  });

  it('records every claim, refusals before any call included, with names', async () => {
    await call('DELETE', '/__mock/claims');
    const questId = await createQuest('Journal quest', `${endpointUrl}/verify`);
    const first = await claim(questId, DEMO.users.admin);
    expect(first.body.status).toBe('success');
    const again = await claim(questId, DEMO.users.admin);
    expect(again.body.reason).toBe('already-claimed');
    // The guest has no email: the seeded email quest refuses before any call.
    const unlinked = await claim(DEMO.quests.verifyEmail, DEMO.users.guest);
    expect(unlinked.body.reason).toBe('account-not-linked');

    const journal = (await call('GET', '/__mock/claims?subdomain=demo')).body;
    expect(journal.map((r: { reason: string }) => r.reason)).toEqual([
      'claimed',
      'already-claimed',
      'account-not-linked',
    ]);
    const [claimed, refused, notLinked] = journal;
    expect(claimed).toMatchObject({
      id: first.body.requestId,
      outcome: 'claimed',
      userName: 'ada',
      questName: 'Journal quest',
      message: 'Seen you.',
    });
    expect(claimed.tasks[0].response.status).toBe(200);
    expect(claimed.tasks[0].request.headers['x-api-key']).toBe('REDACTED');
    expect(refused).toMatchObject({ outcome: 'refused', reason: 'already-claimed' });
    expect(refused.tasks[0]).toMatchObject({ outcome: 'skipped', request: null });
    expect(notLinked).toMatchObject({ outcome: 'refused', missingAccounts: ['email'] });

    const onlyRefused = (await call('GET', '/__mock/claims?outcome=refused')).body;
    expect(onlyRefused.map((r: { id: string }) => r.id)).toEqual([refused.id, notLinked.id]);
    const byMember = (await call('GET', `/__mock/claims?userId=${DEMO.users.guest}`)).body;
    expect(byMember.map((r: { id: string }) => r.id)).toEqual([notLinked.id]);
    expect((await call('GET', '/__mock/claims?outcome=maybe')).status).toBe(400);
  });

  it('records a call without an answer as an endpoint fault with no response', async () => {
    const questId = await createQuest('Nobody home', `${deadUrl}/verify`);
    const result = await claim(questId, DEMO.users.admin);
    const record = (await call('GET', `/__mock/claims?questId=${questId}`)).body[0];
    expect(record).toMatchObject({ id: result.body.requestId, outcome: 'endpoint-fault' });
    expect(record.tasks[0].response).toBeNull();
    expect(record.tasks[0].request.url).toBe(`${deadUrl}/verify`);
    expect(record.tasks[0].error).toMatch(/refused/);
  });

  it('replays a recorded call through the mock with the task key', async () => {
    const questId = await createQuest('Replayed quest', `${endpointUrl}/verify`);
    const first = await claim(questId, DEMO.users.editor);
    const taskId = first.body.tasks[0].taskId;
    const replay = await call(
      'POST',
      `/__mock/claims/${first.body.requestId}/tasks/${taskId}/replay`,
    );
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ outcome: 'verified', message: 'Seen you.' });
    expect(replay.body.response.status).toBe(200);
    expect(JSON.parse(replay.body.request.body).requestId).toBe(first.body.requestId);
    // A replay is not a claim.
    expect((await call('GET', `/__mock/claims?questId=${questId}`)).body).toHaveLength(1);

    const refused = await claim(questId, DEMO.users.editor);
    const none = await call(
      'POST',
      `/__mock/claims/${refused.body.requestId}/tasks/${taskId}/replay`,
    );
    expect(none.status).toBe(409);
    const unknown = await call('POST', `/__mock/claims/nope/tasks/${taskId}/replay`);
    expect(unknown.status).toBe(404);
  });

  it('refuses to replay a body in which a key too short to hide alone was redacted', async () => {
    // The key is the subdomain, which every claim body carries.
    const questId = await createQuest('Short key quest', `${endpointUrl}/verify`, 'demo');
    const first = await claim(questId, DEMO.users.editor);
    const task = first.body.tasks[0];
    expect(JSON.parse(task.request.body).subdomain).toBe('REDACTED');
    const replay = await call(
      'POST',
      `/__mock/claims/${first.body.requestId}/tasks/${task.taskId}/replay`,
    );
    expect(replay.status).toBe(409);
    expect(replay.body.message).toMatch(/cannot be sent again as it was/);
  });

  it('is cleared by DELETE', async () => {
    expect((await call('DELETE', '/__mock/claims')).status).toBe(200);
    expect((await call('GET', '/__mock/claims')).body).toEqual([]);
  });
});
