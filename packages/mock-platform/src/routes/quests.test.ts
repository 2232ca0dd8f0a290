import {
  QUEST_CLAIM_LIMIT_MAX,
  type QuestCreateRequestInput,
  QuestCreateResponseSchema,
  QuestListSchema,
} from '@questkit/core/api';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../seed/demo-ids.js';
import { createTestPlatform, expectError, expectShape } from '../testkit.js';

const LIST_FIELDS = [
  'id',
  'name',
  'description',
  'deleted',
  'communityId',
  'categoryId',
  'createdAt',
  'updatedAt',
  'archived',
  'autoValidate',
  'conditionOperator',
  'conditions',
  'published',
  'recurrence',
  'retryAfter',
  'rewards',
  'tasks',
  'claimLimit',
  'claimCounter',
  'communityImageUrl',
  'communityName',
  'subdomain',
];

const newQuest = (fields: Partial<QuestCreateRequestInput> = {}): QuestCreateRequestInput => ({
  categoryId: DEMO.modules.community,
  name: 'Share a meme',
  published: true,
  recurrence: 'daily',
  conditionOperator: 'AND',
  ...fields,
});

describe('GET /quests', () => {
  it('lists quests with exactly the fields of the contract, in createdAt order', async () => {
    const { call } = createTestPlatform();
    const answer = await call('GET', 'demo/quests?limit=100', { key: DEMO.apiKeys.readOnly });
    const quests = expectShape(QuestListSchema, answer.body);
    expect(quests.map((q) => q.id)).toEqual(Object.values(DEMO.quests));
    for (const quest of answer.body as object[])
      expect(Object.keys(quest).sort()).toEqual([...LIST_FIELDS].sort());
    expect(quests[0]).toMatchObject({
      communityName: 'Questkit Demo',
      subdomain: 'demo',
      communityImageUrl: 'https://example.com/images/questkit-demo.png',
      claimCounter: 57,
    });
    const email = quests[0]!.tasks[0]!;
    expect(email).toMatchObject({
      type: 'api',
      metadata: null,
      settings: { identifications: ['email'] },
    });
  });

  it('walks every page with the cursor, each quest once, at every limit', async () => {
    const { call } = createTestPlatform();
    for (let n = 0; n < 5; n++) {
      expect(
        (await call('POST', 'demo/quests', { body: newQuest({ name: `Extra ${n}` }) })).status,
      ).toBe(200);
    }
    const all = expectShape(QuestListSchema, (await call('GET', 'demo/quests?limit=100')).body).map(
      (q) => q.id,
    );
    expect(all).toHaveLength(15);
    for (const limit of [1, 2, 4, 7, 15]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 20; page++) {
        const query = `limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
        const items = expectShape(
          QuestListSchema,
          (await call('GET', `demo/quests?${query}`)).body,
        );
        seen.push(...items.map((q) => q.id));
        if (items.length < limit) break;
        cursor = items[items.length - 1]!.id;
      }
      expect(seen, `limit ${limit}`).toEqual(all);
    }
  });

  it('defaults limit to 20 and enforces 1..100', async () => {
    const { call } = createTestPlatform();
    for (let n = 0; n < 15; n++)
      await call('POST', 'demo/quests', { body: newQuest({ name: `Q${n}` }) });
    expect((await call('GET', 'demo/quests')).body).toHaveLength(20);
    expectError(await call('GET', 'demo/quests?limit=0'), 400, 'limit');
    expect((await call('GET', 'demo/quests?limit=1')).body).toHaveLength(1);
    expect((await call('GET', 'demo/quests?limit=100')).body).toHaveLength(25);
    expectError(await call('GET', 'demo/quests?limit=101'), 400, 'limit');
  });

  it('filters by module', async () => {
    const { call } = createTestPlatform();
    const quests = expectShape(
      QuestListSchema,
      (await call('GET', `demo/quests?moduleId=${DEMO.modules.partners}`)).body,
    );
    expect(quests.map((q) => q.id)).toEqual([
      DEMO.quests.partnerConnect,
      DEMO.quests.everything,
      DEMO.quests.partnership,
    ]);
    expectError(await call('GET', 'demo/quests?moduleId=partners'), 400, 'moduleId');
  });

  it('refuses a cursor that is not a quest of this community', async () => {
    const { call } = createTestPlatform();
    expectError(await call('GET', 'demo/quests?cursor=abc'), 400, 'cursor');
    expectError(await call('GET', `demo/quests?cursor=${DEMO.sandbox.quest}`), 400, 'cursor');
  });

  it('needs the admin role (or a community key)', async () => {
    const { call, platform } = createTestPlatform();
    const admin = await platform.issueToken(DEMO.users.admin);
    expect((await call('GET', 'demo/quests', { token: admin })).status).toBe(200);
    const reviewer = await platform.issueToken(DEMO.users.reviewer);
    expectError(await call('GET', 'demo/quests', { token: reviewer }), 403, 'admin');
    expectError(await call('GET', 'demo/quests', { key: null }), 401);
    expectError(await call('GET', 'nowhere/quests'), 404);
  });

  it('shows claimCounter as a cache refreshed at most once an interval', async () => {
    const { call, clock, platform } = createTestPlatform();
    const counter = async () =>
      expectShape(QuestListSchema, (await call('GET', 'demo/quests?limit=1')).body)[0]!
        .claimCounter;
    expect(await counter()).toBe(57);
    platform.store.quests.update(DEMO.quests.verifyEmail, { claimCount: 60 });
    expect(await counter()).toBe(57);
    clock.advance(3_600_000 - 1);
    expect(await counter()).toBe(57);
    clock.advance(1);
    expect(await counter()).toBe(60);
  });

  it('takes the refresh interval as an option', async () => {
    const { call, clock, platform } = createTestPlatform({ claimCounterRefreshMs: 1000 });
    await call('GET', 'demo/quests?limit=1');
    platform.store.quests.update(DEMO.quests.verifyEmail, { claimCount: 99 });
    clock.advance(1000);
    const quests = expectShape(QuestListSchema, (await call('GET', 'demo/quests?limit=1')).body);
    expect(quests[0]!.claimCounter).toBe(99);
  });
});

describe('POST /quests', () => {
  it('creates a quest with defaults applied and lists it last', async () => {
    const { call, clock } = createTestPlatform();
    clock.set('2025-07-01T00:00:00.000Z');
    const answer = await call('POST', 'demo/quests', {
      body: newQuest({
        tasks: [
          {
            type: 'api',
            settings: {
              endpoint: 'https://community.example/verify',
              apiKey: 'k',
              identifications: ['wallet', 'svc-connect'],
              network: 'eth-mainnet',
              redirectUrl: 'https://community.example/connect',
            },
          },
        ],
        rewards: [
          { type: 'xp', value: 50 },
          { method: { id: DEMO.quests.draft, type: 'fcfs', max: 10, count: 0 } },
        ],
        conditions: [{ type: 'quest', operator: 'isCompleted', value: DEMO.quests.verifyEmail }],
      }),
    });
    expect(answer.status, answer.text).toBe(200);
    const created = expectShape(QuestCreateResponseSchema, answer.body);
    expect(created).toMatchObject({
      name: 'Share a meme',
      description: null,
      retryAfter: 0,
      claimLimit: 0,
      archived: false,
      isAutomaticWhenEmpty: true,
      communityId: DEMO.communityId,
      categoryId: DEMO.modules.community,
    });
    expect(created.tasks?.[0]?.id).toMatch(/^[0-9a-f-]{36}$/);
    const list = expectShape(QuestListSchema, (await call('GET', 'demo/quests?limit=100')).body);
    const listed = list[list.length - 1]!;
    expect(listed).toMatchObject({
      id: created.id,
      createdAt: '2025-07-01T00:00:00.000Z',
      autoValidate: true,
      claimCounter: 0,
      rewards: [
        { type: 'xp', operator: '=', value: '50' },
        { type: 'fcfs', operator: '=', value: '10' },
      ],
    });
  });

  it.each([
    ['name of 101 characters', { name: 'x'.repeat(101) }, 'name'],
    ['claimLimit above 2147483647', { claimLimit: QUEST_CLAIM_LIMIT_MAX + 1 }, 'claimLimit'],
    ['position above 5000', { position: 5001 }, 'position'],
    ['a categoryId that is not a uuid', { categoryId: 'x' }, 'categoryId'],
    ['a categoryId of no module', { categoryId: DEMO.sandbox.module }, 'categoryId'],
    ['a missing recurrence', { recurrence: undefined }, 'recurrence'],
    [
      'an api task without endpoint',
      { tasks: [{ type: 'api', settings: {} }] },
      'tasks.0.settings.endpoint',
    ],
    [
      'an unknown identification method',
      {
        tasks: [
          { type: 'api', settings: { endpoint: 'https://e.example', identifications: ['phone'] } },
        ],
      },
      'tasks.0.settings.identifications.0',
    ],
    [
      'svc-connect without redirectUrl',
      {
        tasks: [
          {
            type: 'api',
            settings: { endpoint: 'https://e.example', identifications: ['svc-connect'] },
          },
        ],
      },
      'tasks.0.settings.redirectUrl',
    ],
  ])('answers 400 for %s, naming the field', async (_case, fields, field) => {
    const { call } = createTestPlatform();
    expectError(
      await call('POST', 'demo/quests', {
        body: newQuest(fields as Partial<QuestCreateRequestInput>),
      }),
      400,
      field,
    );
  });

  it('accepts each limit exactly at its boundary', async () => {
    const { call } = createTestPlatform();
    const answer = await call('POST', 'demo/quests', {
      body: newQuest({ name: 'x'.repeat(100), claimLimit: QUEST_CLAIM_LIMIT_MAX, position: 5000 }),
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ claimLimit: QUEST_CLAIM_LIMIT_MAX });
  });

  it('answers 400 for a body that is not JSON, or none', async () => {
    const { call } = createTestPlatform();
    expectError(await call('POST', 'demo/quests', { body: '{"name":' }), 400, 'not valid JSON');
    expectError(await call('POST', 'demo/quests'), 400, 'required');
    expectError(await call('POST', 'demo/quests', { body: '[]' }), 400, 'Invalid body');
    expectError(
      await call('POST', 'demo/quests', { body: `"${'x'.repeat(1024 * 1024)}"` }),
      400,
      'larger',
    );
  });

  it('needs a read-write x-api-key of the community', async () => {
    const { call, platform } = createTestPlatform();
    expectError(
      await call('POST', 'demo/quests', { key: DEMO.apiKeys.readOnly, body: newQuest() }),
      403,
      'read-only',
    );
    expectError(
      await call('POST', 'demo/quests', { key: DEMO.sandbox.apiKey, body: newQuest() }),
      403,
    );
    const token = await platform.issueToken(DEMO.users.admin);
    expectError(await call('POST', 'demo/quests', { token, body: newQuest() }), 401, 'x-api-key');
    expectError(await call('POST', 'nowhere/quests', { body: newQuest() }), 404);
  });
});
