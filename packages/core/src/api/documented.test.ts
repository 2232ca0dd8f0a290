import { describe, expect, it } from 'vitest';
import { boundaryCases, issuePaths } from '../schemas/field-cases.testkit.js';
import { API_OPERATIONS } from './index.js';

// The operations the platform's documentation adds to the contract: their limits and rules.

const uuid = '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d';
const { getLeaderboard, listSprints, addXp, removeXp, banUser, checkMember, updateQuest } =
  API_OPERATIONS;

describe('leaderboard query', () => {
  const query = getLeaderboard.query;

  it.each(boundaryCases(1, 100, true))('limit=%s accepted: %s', (value, accepted) => {
    expect(query.safeParse({ page: '1', limit: value }).success).toBe(accepted);
  });

  it('needs page (from 1) and limit; sprintId is an optional uuid, lowered', () => {
    expect(issuePaths(query, { limit: '10' })).toEqual(['page']);
    expect(issuePaths(query, { page: '1' })).toEqual(['limit']);
    expect(issuePaths(query, { page: '0', limit: '10' })).toEqual(['page']);
    expect(issuePaths(query, { page: '1', limit: '10', sprintId: 'x' })).toEqual(['sprintId']);
    expect(query.parse({ page: '2', limit: '10', sprintId: uuid.toUpperCase() })).toEqual({
      page: 2,
      limit: 10,
      sprintId: uuid,
    });
  });

  it('pages by page number from 1, the items in data', () => {
    expect(getLeaderboard.paging).toEqual({
      size: 'limit',
      maxSize: 100,
      items: 'data',
      next: { kind: 'page-number', param: 'page', first: 1 },
    });
  });
});

describe('sprint list query', () => {
  it('takes onlyCurrent as true or false, false by default', () => {
    const query = listSprints.query;
    expect(query.parse({})).toEqual({ onlyCurrent: false });
    expect(query.parse({ onlyCurrent: 'true' })).toEqual({ onlyCurrent: true });
    expect(query.parse({ onlyCurrent: false })).toEqual({ onlyCurrent: false });
    for (const value of ['yes', '1', '']) {
      expect(issuePaths(query, { onlyCurrent: value })).toEqual(['onlyCurrent']);
    }
  });
});

describe.each([
  ['add', addXp],
  ['remove', removeXp],
])('XP %s body', (_name, operation) => {
  const body = operation.body;

  it.each(boundaryCases(1, 2_147_483_647, false))('xp=%s accepted: %s', (value, accepted) => {
    expect(body.safeParse({ xp: Number(value), label: 'x' }).success).toBe(accepted);
  });

  it('needs an integer xp and a label of 1 to 256 characters; description up to 2,000', () => {
    expect(issuePaths(body, { xp: 1.5, label: 'x' })).toEqual(['xp']);
    expect(issuePaths(body, { xp: 1 })).toEqual(['label']);
    expect(issuePaths(body, { xp: 1, label: '' })).toEqual(['label']);
    expect(issuePaths(body, { xp: 1, label: 'x'.repeat(257) })).toEqual(['label']);
    expect(
      issuePaths(body, { xp: 1, label: 'x'.repeat(256), description: 'd'.repeat(2000) }),
    ).toEqual([]);
    expect(issuePaths(body, { xp: 1, label: 'x', description: 'd'.repeat(2001) })).toEqual([
      'description',
    ]);
  });
});

describe('other bodies', () => {
  it('ban: an optional non-empty reason', () => {
    expect(banUser.body.parse({})).toEqual({});
    expect(issuePaths(banUser.body, { reason: '' })).toEqual(['reason']);
  });

  it('member check: a uuid userId', () => {
    expect(issuePaths(checkMember.body, {})).toEqual(['userId']);
    expect(issuePaths(checkMember.body, { userId: 'x' })).toEqual(['userId']);
  });

  it('quest update: every field optional, no default applied, the creation limits kept', () => {
    expect(updateQuest.body.parse({})).toEqual({});
    expect(issuePaths(updateQuest.body, { name: 'x'.repeat(101) })).toEqual(['name']);
    expect(issuePaths(updateQuest.body, { position: 5001 })).toEqual(['position']);
    expect(issuePaths(updateQuest.body, { claimLimit: -1 })).toEqual(['claimLimit']);
    expect(issuePaths(updateQuest.body, { aiPrompt: 'p'.repeat(5001) })).toEqual(['aiPrompt']);
    expect(updateQuest.body.parse({ sprintId: null, archived: true })).toEqual({
      sprintId: null,
      archived: true,
    });
    // tasks and rewards are not fields of the update (the mock refuses them as unknown).
    expect(Object.keys(updateQuest.body.shape)).not.toContain('tasks');
    expect(Object.keys(updateQuest.body.shape)).not.toContain('rewards');
  });

  it('secret creation answers 201; the others 200', () => {
    expect(API_OPERATIONS.createSecret.status).toBe(201);
    expect('status' in API_OPERATIONS.getSecret).toBe(false);
  });
});
