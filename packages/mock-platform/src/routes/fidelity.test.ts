import { QuestListSchema, UserSchema } from '@questkit/core/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockPlatform } from '../platform.js';
import { DEMO } from '../seed/demo-ids.js';
import { type MockServer, startMockServer } from '../server.js';
import { createTestPlatform, expectError, expectShape } from '../testkit.js';

// The contract points a careful reader checks: non-nullable list fields, unknown nested keys,
// strict integers, upper-case uuids, bare "no content" answers and one cursor rule.

const newQuest = (fields: Record<string, unknown> = {}) => ({
  categoryId: DEMO.modules.community,
  name: 'Share a meme',
  published: true,
  recurrence: 'daily',
  conditionOperator: 'AND',
  ...fields,
});

describe('quest list fields the contract does not mark nullable', () => {
  it('carry values of their type, for seeded and created quests, in every community', async () => {
    const { call } = createTestPlatform();
    const created = await call('POST', 'demo/quests', { body: newQuest({ retryAfter: null }) });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ description: null, retryAfter: null });

    const demo = expectShape(QuestListSchema, (await call('GET', 'demo/quests?limit=100')).body);
    for (const quest of demo) {
      expect(quest.description).not.toBeNull();
      expect(typeof quest.retryAfter).toBe('number');
      expect(typeof quest.communityImageUrl).toBe('string');
    }
    const listed = demo.find((quest) => quest.id === (created.body as { id: string }).id)!;
    expect(listed).toMatchObject({ description: { type: 'doc', content: [] }, retryAfter: 0 });
    // The seed gives each quest a description of its own.
    expect(demo.filter((quest) => (quest.description.content ?? []).length > 0).length).toBe(
      demo.length - 1,
    );

    // The sandbox community has no image (the community's field is nullable).
    const sandboxList = await call('GET', 'sandbox/quests', { key: DEMO.sandbox.apiKey });
    const [only] = expectShape(QuestListSchema, sandboxList.body);
    expect(only?.communityImageUrl).toBe('');
  });
});

describe('unknown fields next to missing ones', () => {
  it('name them all: a webhook sent with url and secret hears that url should be uri', async () => {
    const { call } = createTestPlatform();
    const answer = await call('POST', 'demo/webhooks', {
      body: { url: 'http://127.0.0.1:4010/hooks', secret: 's', events: ['JOINED_COMMUNITY'] },
    });
    expectError(
      answer,
      400,
      'Invalid body: missing fields name, uri, active; unknown fields url (did you mean uri?), secret',
    );
    expect((answer.body as { issues: unknown[] }).issues).toEqual([
      { in: 'body', path: 'name', message: 'Required field is missing' },
      { in: 'body', path: 'uri', message: 'Required field is missing' },
      { in: 'body', path: 'active', message: 'Required field is missing' },
      { in: 'body', path: 'url', message: 'Unknown field; did you mean uri?' },
      { in: 'body', path: 'secret', message: 'Unknown field' },
    ]);
  });

  it('name a wrong field next to the unknown ones', async () => {
    const { call } = createTestPlatform();
    const answer = await call('POST', 'demo/webhooks', {
      body: { name: 'n', uri: 'not a url', active: true, activ: true, evnts: [] },
    });
    expectError(answer, 400, 'field uri:', 'unknown fields activ, evnts (did you mean events?)');
  });
});

describe('unknown nested keys in quest creation', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['a reward', { rewards: [{ type: 'xp', valeu: 100, value: 1 }] }, 'rewards.0.valeu'],
    [
      'a method reward',
      {
        rewards: [
          { method: { id: DEMO.quests.verifyEmail, type: 'fcfs', max: 1, count: 0, maxx: 2 } },
        ],
      },
      'rewards.0.method.maxx',
    ],
    [
      'a condition',
      { conditions: [{ type: 'level', operator: '=', value: '2', oprator: '>' }] },
      'conditions.0.oprator',
    ],
    [
      'a task',
      { tasks: [{ type: 'partnership', settings: { subdomain: 'x' }, setings: {} }] },
      'tasks.0.setings',
    ],
    ['the top level', { descripton: 'x' }, 'descripton'],
  ];
  it.each(
    cases,
  )('answer 400 naming the path in %s, and create nothing', async (_, fields, path) => {
    const { call } = createTestPlatform();
    const before = (await call('GET', 'demo/quests?limit=100')).body as unknown[];
    const answer = await call('POST', 'demo/quests', { body: newQuest(fields) });
    expectError(answer, 400, `unknown field ${path}`);
    expect(answer.body).toMatchObject({
      issues: [{ in: 'body', path, message: expect.stringMatching(/^Unknown field/) }],
    });
    expect((await call('GET', 'demo/quests?limit=100')).body).toHaveLength(before.length);
  });

  it('name every unknown field, each time, with a did-you-mean where one is near', async () => {
    const { call } = createTestPlatform();
    const answer = await call('POST', 'demo/quests', {
      body: newQuest({
        descripton: 'x',
        rewards: [{ type: 'xp', value: 1, valeu: 100 }],
        sprint: 'x',
        colour: 'red',
      }),
    });
    expectError(
      answer,
      400,
      'Invalid body: unknown fields descripton (did you mean description?), rewards.0.valeu, sprint (did you mean sprintId?), colour',
    );
    expect((answer.body as { issues: unknown[] }).issues).toEqual([
      { in: 'body', path: 'descripton', message: 'Unknown field; did you mean description?' },
      { in: 'body', path: 'rewards.0.valeu', message: 'Unknown field' },
      { in: 'body', path: 'sprint', message: 'Unknown field; did you mean sprintId?' },
      { in: 'body', path: 'colour', message: 'Unknown field' },
    ]);
  });

  it('keep the extra settings of a task, which are the task type’s own', async () => {
    const { call } = createTestPlatform();
    const answer = await call('POST', 'demo/quests', {
      body: newQuest({ tasks: [{ type: 'partnership', settings: { subdomain: 'partner' } }] }),
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ tasks: [{ settings: { subdomain: 'partner' } }] });
  });
});

describe('integer query parameters', () => {
  const invites = `demo/users/${DEMO.users.admin}/invites`;
  it.each([
    '0x1',
    '1e3',
    ' 1 ',
    '1.5',
    '-1',
    '',
    '+1',
    '１',
  ])('refuse page=%j, naming the parameter', async (value) => {
    const { call } = createTestPlatform();
    const answer = await call('GET', `${invites}?page=${encodeURIComponent(value)}`);
    expectError(answer, 400, 'query parameter page');
  });

  it('say a missing page is required', async () => {
    const { call } = createTestPlatform();
    const answer = await call('GET', invites);
    expectError(answer, 400, 'query parameter page', 'Required');
    expect(JSON.stringify(answer.body)).not.toContain('NaN');
  });

  it('accept digits in range, leading zeros included, and refuse one past the range', async () => {
    const { call } = createTestPlatform();
    expect((await call('GET', `${invites}?page=001&page_size=100`)).status).toBe(200);
    expectError(await call('GET', `${invites}?page=1001`), 400, 'query parameter page');
    expectError(await call('GET', `${invites}?page=1&page_size=101`), 400, 'page_size');
    expectError(await call('GET', 'demo/quests?limit=1e1'), 400, 'query parameter limit');
  });
});

describe('the query string', () => {
  const lookup = 'demo/users';
  it('is decoded as a URL would be: percent-escapes, "+" as a space, the first of a repeat', async () => {
    const { call } = createTestPlatform();
    const found = await call('GET', `${lookup}?email=ada%40example.com`);
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ id: DEMO.users.admin });
    // The first value counts: a second one cannot widen or change the lookup.
    const repeated = await call('GET', `${lookup}?email=ada@example.com&email=nobody@example.com`);
    expect(repeated.body).toMatchObject({ id: DEMO.users.admin });
    const swapped = await call('GET', `${lookup}?email=nobody@example.com&email=ada@example.com`);
    expect(swapped.status).toBe(404);
    // "+" is a space, and identifiers are trimmed: the same member.
    expect((await call('GET', `${lookup}?email=+ada@example.com`)).body).toMatchObject({
      id: DEMO.users.admin,
    });
  });

  it('ends at a fragment, which is never part of a value', async () => {
    const { call } = createTestPlatform();
    const answer = await call('GET', `${lookup}?email=ada@example.com#email=nobody`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: DEMO.users.admin });
    const invites = `demo/users/${DEMO.users.admin}/invites?page=1#0`;
    expect((await call('GET', invites)).status).toBe(200);
  });

  it('may be empty or absent', async () => {
    const { call } = createTestPlatform();
    expectError(await call('GET', `${lookup}?`), 400);
    expectError(await call('GET', lookup), 400);
    expect((await call('GET', 'demo/quests?')).status).toBe(200);
  });
});

describe('uuids', () => {
  it('match case-insensitively in paths, queries and bodies', async () => {
    const { call } = createTestPlatform();
    const lower = await call('GET', `demo/users/${DEMO.users.admin}`);
    const upper = await call('GET', `demo/users/${DEMO.users.admin.toUpperCase()}`);
    expect(upper.status).toBe(200);
    expect(expectShape(UserSchema, upper.body)).toEqual(lower.body);
    const byModule = await call(
      'GET',
      `demo/quests?moduleId=${DEMO.modules.onboarding.toUpperCase()}`,
    );
    expect((byModule.body as unknown[]).length).toBeGreaterThan(0);
    const created = await call('POST', 'demo/quests', {
      body: newQuest({ categoryId: DEMO.modules.community.toUpperCase() }),
    });
    expect(created.body).toMatchObject({ categoryId: DEMO.modules.community });
  });
});

describe('one cursor rule for both lists', () => {
  it.each(['', 'null'])('cursor=%j is the first page of quests and of webhooks', async (value) => {
    const { call } = createTestPlatform();
    const quests = await call('GET', `demo/quests?limit=3&cursor=${value}`);
    expect(quests.body).toEqual((await call('GET', 'demo/quests?limit=3')).body);
    const hooks = await call('GET', `demo/webhooks?limit=1&cursor=${value}`);
    expect(hooks.status).toBe(200);
    expect(hooks.body).toEqual((await call('GET', 'demo/webhooks?limit=1')).body);
  });

  it('refuses a cursor neither list handed out, on both', async () => {
    const { call } = createTestPlatform();
    expectError(await call('GET', 'demo/quests?cursor=nope'), 400, 'cursor');
    expectError(await call('GET', 'demo/webhooks?cursor=nope'), 400, 'cursor');
  });
});

describe('"200, no content" over HTTP', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer(createMockPlatform({ rateLimit: { perSecond: 100 } }), {
      port: 0,
    });
  });
  afterAll(() => server.close());

  it('has no content type and no body, on PATCH and DELETE', async () => {
    const headers = { 'x-api-key': DEMO.apiKeys.readWrite, 'content-type': 'application/json' };
    const base = `${server.url}/public/communities/demo/webhooks`;
    const created = await fetch(base, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'n', uri: 'https://example.com/h', active: true, events: [] }),
    });
    const { id } = (await created.json()) as { id: string };
    const patched = await fetch(`${base}/${id}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ active: false }),
    });
    expect(patched.status).toBe(200);
    expect(patched.headers.get('content-type')).toBeNull();
    expect(await patched.text()).toBe('');
    const deleted = await fetch(`${base}/${id}`, { method: 'DELETE', headers });
    expect(deleted.status).toBe(200);
    expect(deleted.headers.get('content-type')).toBeNull();
    expect(await deleted.text()).toBe('');
    // Answers with content keep theirs.
    const listed = await fetch(base, { headers });
    expect(listed.headers.get('content-type')).toContain('application/json');
  });
});
