import { describe, expect, it } from 'vitest';
import { boundaryCases, describeFields, issuePaths } from './field-cases.testkit.js';
import {
  QuestConditionSchema,
  QuestCreateRequestSchema,
  QuestCreateResponseSchema,
  QuestCreateResponseTaskSchema,
  QuestCreateTaskSchema,
  QuestListItemSchema,
  QuestListRewardSchema,
  QuestListSchema,
  QuestListTaskSchema,
  QuestMethodRewardSchema,
  QuestRewardSchema,
  QuestValueRewardSchema,
  TaskSettingsSchema,
} from './quests.js';

const uuid = (n: number) => `3f1c2a9e-6b7d-4c1e-9a2b-8d4e5f6a7b${String(n).padStart(2, '0')}`;

const description = {
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Join our Discord' }] }],
};

const apiSettings = {
  title: 'Hold a badge',
  description: 'We check your wallet',
  endpoint: 'https://verify.example.com/quests',
  apiKey: 'k_live_123',
  identifications: ['email', 'wallet'],
  network: 'eth-mainnet',
  redirectUrl: 'https://example.com/connect',
};

const listTask = { id: 't-1', metadata: { source: 'import' }, type: 'api', settings: apiSettings };

const listReward = {
  type: 'xp',
  operator: '=',
  value: '100',
  chain: 'polygon',
  collection: 'Badges',
  contractAddress: '0x9fB29AAc15b9A4B7F17c3385939b007540f4d791',
};

const condition = { type: 'level', value: '3', operator: '=' };

const listItem = {
  id: 'q-1',
  name: 'Join Discord',
  description,
  deleted: false,
  communityId: 'c-1',
  categoryId: 'cat-1',
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-02T00:00:00Z',
  archived: false,
  autoValidate: true,
  conditionOperator: 'AND',
  conditions: [condition],
  published: true,
  recurrence: 'daily',
  retryAfter: 3600,
  rewards: [listReward],
  tasks: [listTask],
  claimLimit: 0,
  claimCounter: 17,
  communityImageUrl: 'https://cdn.example.com/demo.png',
  communityName: 'Demo',
  subdomain: 'demo',
};

const createRequest = {
  categoryId: uuid(1),
  name: 'Join Discord',
  published: true,
  recurrence: 'daily',
  conditionOperator: 'AND',
  retryAfter: 0,
  description,
  conditions: [{ type: 'quest', operator: 'isCompleted', value: uuid(2) }],
  position: 3,
  claimLimit: 10,
  sprintId: uuid(3),
  tasks: [{ type: 'partnership', settings: { subdomain: 'partner' } }],
  rewards: [
    { type: 'xp', value: 100 },
    { method: { id: uuid(4), type: 'fcfs', max: 10, count: 0 } },
  ],
  isAutomaticWhenEmpty: false,
};

const createResponse = {
  id: uuid(5),
  name: 'Join Discord',
  recurrence: 'daily',
  description,
  retryAfter: 0,
  archived: false,
  published: true,
  communityId: uuid(6),
  categoryId: uuid(1),
  conditionOperator: 'AND',
  claimLimit: 10,
  isAutomaticWhenEmpty: true,
  conditions: [{ type: 'quest', operator: 'isCompleted', value: uuid(2) }],
  rewards: [{ type: 'xp', value: 100 }],
  tasks: [{ id: uuid(7), type: 'partnership', settings: { subdomain: 'partner' } }],
};

const listItemKeys = Object.keys(listItem);

// The contract marks no list field nullable: description, retryAfter and communityImageUrl
// included (they are nullable in the create response and the community, not here).
describeFields('Quest list item', QuestListItemSchema, listItem, {
  required: listItemKeys,
});

describeFields('Quest list task', QuestListTaskSchema, listTask, {
  required: ['id', 'type', 'settings'],
  nullable: ['metadata'],
});

describeFields('Task settings', TaskSettingsSchema, apiSettings, {
  optional: Object.keys(apiSettings),
});

describeFields('Quest list reward', QuestListRewardSchema, listReward, {
  required: ['type', 'value'],
  optional: ['operator'],
  optionalNullable: ['chain', 'collection', 'contractAddress'],
});

describeFields('Quest condition', QuestConditionSchema, condition, {
  required: ['type', 'operator', 'value'],
});

describeFields('Quest create request', QuestCreateRequestSchema, createRequest, {
  required: ['categoryId', 'name', 'published', 'recurrence', 'conditionOperator'],
  optional: [
    'description',
    'conditions',
    'position',
    'claimLimit',
    'sprintId',
    'tasks',
    'rewards',
    'isAutomaticWhenEmpty',
  ],
  optionalNullable: ['retryAfter'],
});

describeFields('Quest create task', QuestCreateTaskSchema, createRequest.tasks[0]!, {
  required: ['type', 'settings'],
});

describeFields(
  'Quest value reward',
  QuestValueRewardSchema,
  { type: 'xp', value: 5 },
  {
    required: ['type', 'value'],
  },
);

describeFields('Quest method reward', QuestMethodRewardSchema, createRequest.rewards[1]!, {
  required: ['method'],
});

describeFields('Quest create response', QuestCreateResponseSchema, createResponse, {
  required: [
    'id',
    'name',
    'recurrence',
    'archived',
    'published',
    'communityId',
    'categoryId',
    'conditionOperator',
    'claimLimit',
  ],
  nullable: ['description', 'retryAfter'],
  optional: ['isAutomaticWhenEmpty', 'conditions', 'rewards', 'tasks'],
});

describeFields(
  'Quest create response task',
  QuestCreateResponseTaskSchema,
  createResponse.tasks[0]!,
  {
    required: ['id', 'type', 'settings'],
  },
);

describe('Quest list', () => {
  it('accepts values beyond the ones the contract has seen', () => {
    const other = {
      ...listItem,
      recurrence: 'weekly',
      conditionOperator: 'OR',
      tasks: [{ ...listTask, type: 'quiz', settings: { questions: [{ q: 'why' }] } }],
    };
    expect(issuePaths(QuestListSchema, [listItem, other])).toEqual([]);
  });

  it('keeps unknown task settings of other task types', () => {
    const settings = { subdomain: 'partner', answers: ['a'] };
    expect(TaskSettingsSchema.parse(settings)).toEqual(settings);
  });

  it.each([
    ['endpoint', 'not a url'],
    ['endpoint', 'ftp://files.example.com/x'],
    ['identifications', ['email', 3]],
  ])('rejects settings.%s = %j', (key, value) => {
    const paths = issuePaths(TaskSettingsSchema, { ...apiSettings, [key]: value });
    expect(paths[0]?.startsWith(key)).toBe(true);
  });

  it('accepts an http endpoint on loopback', () => {
    const settings = { ...apiSettings, endpoint: 'http://127.0.0.1:8787/verify' };
    expect(issuePaths(TaskSettingsSchema, settings)).toEqual([]);
  });

  it('rejects a negative or fractional claimCounter', () => {
    expect(issuePaths(QuestListItemSchema, { ...listItem, claimCounter: -1 })).toEqual([
      'claimCounter',
    ]);
    expect(issuePaths(QuestListItemSchema, { ...listItem, claimCounter: 0.5 })).toEqual([
      'claimCounter',
    ]);
  });

  it('validates the rich-text description', () => {
    const bad = { ...listItem, description: { type: 'doc', content: [{ text: 1 }] } };
    expect(issuePaths(QuestListItemSchema, bad)).toEqual(['description.content.0.text']);
  });
});

describe('Quest create request', () => {
  it('applies the defaults of the contract', () => {
    const minimal = {
      categoryId: uuid(1),
      name: 'Q',
      published: false,
      recurrence: 'daily',
      conditionOperator: 'AND',
    };
    expect(QuestCreateRequestSchema.parse(minimal)).toEqual({
      ...minimal,
      retryAfter: 0,
      claimLimit: 0,
      isAutomaticWhenEmpty: true,
    });
  });

  it('keeps an explicit null retryAfter', () => {
    expect(QuestCreateRequestSchema.parse({ ...createRequest, retryAfter: null }).retryAfter).toBe(
      null,
    );
  });

  const limitCases: (readonly [key: string, value: unknown, accepted: boolean])[] = [
    ['name', 'x'.repeat(100), true],
    ['name', 'x'.repeat(101), false],
    ...boundaryCases(0, 5000).map(([value, ok]) => ['position', value, ok] as const),
    ...boundaryCases(0, 2147483647).map(([value, ok]) => ['claimLimit', value, ok] as const),
    ['position', 2.5, false],
    ['claimLimit', 1.5, false],
    ['retryAfter', -1, false],
    ['retryAfter', 0, true],
    ['retryAfter', 86400, true],
  ];

  it.each(limitCases)('%s = %s accepted: %s', (key, value, accepted) => {
    const paths = issuePaths(QuestCreateRequestSchema, { ...createRequest, [key]: value });
    expect(paths).toEqual(accepted ? [] : [key]);
  });

  it.each([
    ['categoryId', 'cat-1'],
    ['sprintId', 'sprint-1'],
  ])('needs %s to be a uuid', (key, value) => {
    expect(issuePaths(QuestCreateRequestSchema, { ...createRequest, [key]: value })).toEqual([key]);
  });

  it('accepts both reward shapes and rejects a mix of neither', () => {
    expect(issuePaths(QuestRewardSchema, { type: 'xp', value: 100 })).toEqual([]);
    expect(
      issuePaths(QuestRewardSchema, { method: { id: uuid(4), type: 'fcfs', max: 1, count: 0 } }),
    ).toEqual([]);
    expect(QuestRewardSchema.safeParse({ type: 'xp', value: '100' }).success).toBe(false);
    expect(
      QuestRewardSchema.safeParse({ method: { id: 'x', type: 'fcfs', max: 1, count: 0 } }).success,
    ).toBe(false);
    expect(QuestRewardSchema.safeParse({}).success).toBe(false);
  });

  it('names the bad task element', () => {
    const bad = { ...createRequest, tasks: [createRequest.tasks[0], { type: 'api' }] };
    expect(issuePaths(QuestCreateRequestSchema, bad)).toEqual(['tasks.1.settings']);
  });
});

describe('Quest create response', () => {
  it.each([
    ['id', 'q-1'],
    ['communityId', 'c-1'],
    ['categoryId', 'cat-1'],
  ])('needs %s to be a uuid', (key, value) => {
    expect(issuePaths(QuestCreateResponseSchema, { ...createResponse, [key]: value })).toEqual([
      key,
    ]);
  });

  it.each(boundaryCases(0, 2147483647))('claimLimit = %s accepted: %s', (claimLimit, accepted) => {
    const paths = issuePaths(QuestCreateResponseSchema, { ...createResponse, claimLimit });
    expect(paths).toEqual(accepted ? [] : ['claimLimit']);
  });

  it('does not invent isAutomaticWhenEmpty', () => {
    const { isAutomaticWhenEmpty: _omitted, ...rest } = createResponse;
    expect(QuestCreateResponseSchema.parse(rest)).not.toHaveProperty('isAutomaticWhenEmpty');
  });
});
