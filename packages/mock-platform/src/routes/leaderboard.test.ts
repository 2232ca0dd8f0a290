import {
  CommunitySecretInfoSchema,
  CommunitySecretSchema,
  LeaderboardSchema,
  QuestCreateResponseSchema,
  ReferralCodeSchema,
  SprintListSchema,
} from '@questkit/core';
import { describe, expect, it } from 'vitest';
import { seedDemo } from '../seed/demo.js';
import { DEMO } from '../seed/demo-ids.js';
import { createMemoryStore } from '../store/memory.js';
import { createTestPlatform, expectError, expectShape } from '../testkit.js';

const UNKNOWN = '99999999-0000-4000-8000-000000000000';

describe('GET /leaderboard', () => {
  it('pages every member once, by xp then id, totalPages rounded up, banned and deleted absent', async () => {
    const store = createMemoryStore();
    seedDemo(store, { users: 312 });
    const { call } = createTestPlatform({ store });
    const rows = [];
    let totalPages = 0;
    for (let page = 1; page <= 10; page++) {
      const answer = await call('GET', `demo/leaderboard?page=${page}&limit=100`);
      const body = expectShape(LeaderboardSchema, answer.body);
      expect(body).toMatchObject({ page, status: 'success' });
      totalPages = body.totalPages;
      rows.push(...body.data);
      if (page >= body.totalPages) break;
    }
    // 312 generated + 10 named, less the banned and the deleted one: 320 at 100 a page.
    expect(rows).toHaveLength(320);
    expect(totalPages).toBe(4);
    expect(new Set(rows.map((row) => row.userId)).size).toBe(320);
    for (const [index, row] of rows.entries()) {
      if (index === 0) continue;
      const before = rows[index - 1]!;
      expect(before.xp > row.xp || (before.xp === row.xp && before.userId < row.userId)).toBe(true);
    }
    const ids = rows.map((row) => row.userId);
    expect(ids).not.toContain(DEMO.users.banned);
    expect(ids).not.toContain(DEMO.users.deleted);
    const past = await call('GET', 'demo/leaderboard?page=5&limit=100');
    expect(expectShape(LeaderboardSchema, past.body)).toMatchObject({
      data: [],
      totalRecords: 320,
    });
  });

  it('shows each member with the record’s fields, rank = place', async () => {
    const { call } = createTestPlatform();
    const body = expectShape(
      LeaderboardSchema,
      (await call('GET', 'demo/leaderboard?page=2&limit=3')).body,
    );
    expect(body.data).toHaveLength(3);
    const third = body.data[0]!;
    const user = (await call('GET', `demo/users/${third.userId}`)).body as { rank: number };
    expect(user.rank).toBe(4);
  });

  it('enforces page >= 1 and 1 <= limit <= 100, both required, sprintId a uuid', async () => {
    const { call } = createTestPlatform();
    for (const query of [
      'limit=10',
      'page=1',
      'page=0&limit=10',
      'page=1&limit=0',
      'page=1&limit=101',
      'page=x&limit=10',
      'page=1&limit=10&sprintId=nope',
    ]) {
      expectError(await call('GET', `demo/leaderboard?${query}`), 400);
    }
    expect((await call('GET', 'demo/leaderboard?page=1&limit=100')).status).toBe(200);
    expectError(await call('GET', `demo/leaderboard?page=1&limit=10&sprintId=${UNKNOWN}`), 400);
    expect(
      (await call('GET', 'demo/leaderboard?page=1&limit=10', { key: DEMO.apiKeys.readOnly }))
        .status,
    ).toBe(200);
  });

  it('with sprintId counts only xp within the sprint’s dates and from its included quests', async () => {
    const { call, clock } = createTestPlatform();
    const sprint = (id: string) =>
      call('GET', `demo/leaderboard?page=1&limit=100&sprintId=${id}`).then((answer) =>
        expectShape(LeaderboardSchema, answer.body),
      );
    // The seed: editor 40 (verify email, April) + 60 (manual, May 20); reviewer 25 (verify
    // email, April) + 30 (Discord, May 25); walletOnly 80 (wallet, May 22).
    const past = await sprint(DEMO.sprints.past);
    expect(past.data.map((row) => [row.userId, row.xp, row.numberOfQuests])).toEqual([
      [DEMO.users.editor, 40, 1],
      [DEMO.users.reviewer, 25, 1],
    ]);
    const current = await sprint(DEMO.sprints.current);
    expect(current.data.map((row) => [row.userId, row.xp])).toEqual([
      [DEMO.users.walletOnly, 80],
      [DEMO.users.editor, 60],
      [DEMO.users.reviewer, 30],
    ]);
    clock.advance(60_000);
    await call('POST', `demo/users/${DEMO.users.guest}/xp`, { body: { xp: 70, label: 'Now' } });
    const after = await sprint(DEMO.sprints.current);
    expect(after.data[1]).toMatchObject({ userId: DEMO.users.guest, xp: 70 });
    expect(after).toMatchObject({ totalRecords: 4, totalPages: 1 });
    // Not in the past sprint: neither its dates nor its quests.
    expect((await sprint(DEMO.sprints.past)).totalRecords).toBe(2);
  });
});

describe('GET /leaderboard/sprint', () => {
  it('lists the sprints; onlyCurrent keeps the running one', async () => {
    const { call } = createTestPlatform();
    const all = expectShape(SprintListSchema, (await call('GET', 'demo/leaderboard/sprint')).body);
    expect(all.data.map((sprint) => sprint.id)).toEqual([DEMO.sprints.past, DEMO.sprints.current]);
    expect(all.data[0]!.includedQuestsIds).toEqual([DEMO.quests.verifyEmail]);
    const current = await call('GET', 'demo/leaderboard/sprint?onlyCurrent=true');
    expect(expectShape(SprintListSchema, current.body).data.map((s) => s.id)).toEqual([
      DEMO.sprints.current,
    ]);
    const explicit = await call('GET', 'demo/leaderboard/sprint?onlyCurrent=false');
    expect(expectShape(SprintListSchema, explicit.body).data).toHaveLength(2);
    expectError(await call('GET', 'demo/leaderboard/sprint?onlyCurrent=yes'), 400);
    const sandbox = await call('GET', 'sandbox/leaderboard/sprint?onlyCurrent=true', {
      key: DEMO.sandbox.apiKey,
    });
    expect(sandbox.body).toEqual({ data: [] });
  });

  it('keeps one sprint running at a time: the store refuses an overlap', () => {
    const store = createMemoryStore();
    seedDemo(store, { users: 0 });
    const running = store.sprints.get(DEMO.sprints.current)!;
    expect(() =>
      store.sprints.put({ ...running, id: UNKNOWN, startingAt: '2026-01-01T00:00:00.000Z' }),
    ).toThrow(/one sprint runs at a time/);
  });
});

describe('POST /member', () => {
  it('answers 200 without content for a member, banned included; 404 otherwise', async () => {
    const { call } = createTestPlatform();
    const check = (userId: string, key?: string) =>
      call('POST', 'demo/member', { body: { userId }, ...(key ? { key } : {}) });
    const member = await check(DEMO.users.admin);
    expect(member.status).toBe(200);
    expect(member.text).toBe('');
    expect((await check(DEMO.users.banned)).status).toBe(200);
    expectError(await check(DEMO.users.deleted), 404);
    expectError(await check(UNKNOWN), 404);
    expectError(await check(DEMO.sandbox.users.guest), 404);
    // Any community, with any key, as the community lookup.
    expect((await check(DEMO.users.admin, DEMO.sandbox.apiKey)).status).toBe(200);
    expectError(await call('POST', 'demo/member', { body: { userId: 'nope' } }), 400);
    expectError(await call('POST', 'demo/member', { body: {} }), 400);
  });
});

describe('POST and GET /secrets', () => {
  it('creates with 201, shows the secret once, and a second one replaces the first', async () => {
    const { call, platform } = createTestPlatform();
    const first = await call('POST', 'demo/secrets');
    expect(first.status, first.text).toBe(201);
    const created = expectShape(CommunitySecretSchema, first.body);
    expect(created.secret.startsWith(created.prefix)).toBe(true);
    expect(created.secret.length).toBeGreaterThanOrEqual(32);
    const read = await call('GET', 'demo/secrets', { key: DEMO.apiKeys.readOnly });
    expect(read.status).toBe(200);
    expect(expectShape(CommunitySecretInfoSchema, read.body)).toEqual({
      prefix: created.prefix,
      createdAt: created.createdAt,
    });
    expect(read.text).not.toContain(created.secret);
    const second = expectShape(CommunitySecretSchema, (await call('POST', 'demo/secrets')).body);
    expect(second.secret).not.toBe(created.secret);
    expect(platform.store.communities.getBySubdomain('demo')!.connectSecret).toBe(second.secret);
  });

  it('shows the seeded secret’s prefix only; creation needs a read-write key', async () => {
    const { call } = createTestPlatform();
    const read = await call('GET', 'demo/secrets');
    expect(read.body).toEqual({
      prefix: DEMO.connectSecret.slice(0, 8),
      createdAt: expect.any(String),
    });
    expectError(await call('POST', 'demo/secrets', { key: DEMO.apiKeys.readOnly }), 403);
  });
});

describe('GET /users/{userId}/referral-code', () => {
  it('answers the same code every time, a different one per member', async () => {
    const { call } = createTestPlatform();
    const code = async (id: string) =>
      expectShape(ReferralCodeSchema, (await call('GET', `demo/users/${id}/referral-code`)).body)
        .code;
    expect(await code(DEMO.users.admin)).toBe(await code(DEMO.users.admin));
    expect(await code(DEMO.users.admin)).not.toBe(await code(DEMO.users.editor));
    expectError(await call('GET', `demo/users/${UNKNOWN}/referral-code`), 404);
    expectError(await call('GET', `demo/users/${DEMO.users.deleted}/referral-code`), 404);
  });
});

describe('PATCH /quests/{questId}', () => {
  const path = `demo/quests/${DEMO.quests.joinDiscord}`;

  it('changes the fields given and answers the quest as creation does', async () => {
    const { call, platform } = createTestPlatform();
    const answer = await call('PATCH', path, {
      body: {
        name: 'Join us on Discord',
        archived: true,
        claimLimit: 5,
        sprintId: DEMO.sprints.current,
        aiReview: true,
        aiPrompt: 'Check the screenshot',
        isAutomaticWhenEmpty: false,
      },
    });
    expect(answer.status, answer.text).toBe(200);
    const quest = expectShape(QuestCreateResponseSchema, answer.body);
    expect(quest).toMatchObject({
      id: DEMO.quests.joinDiscord,
      name: 'Join us on Discord',
      archived: true,
      claimLimit: 5,
      isAutomaticWhenEmpty: false,
    });
    const record = platform.store.quests.get(DEMO.quests.joinDiscord)!;
    expect(record).toMatchObject({
      sprintId: DEMO.sprints.current,
      aiReview: true,
      aiPrompt: 'Check the screenshot',
    });
    const untouched = await call('PATCH', path, { body: {} });
    expect(expectShape(QuestCreateResponseSchema, untouched.body).name).toBe('Join us on Discord');
  });

  it('refuses tasks and rewards, bad values and unknown modules or sprints (400)', async () => {
    const { call } = createTestPlatform();
    for (const body of [
      { tasks: [] },
      { rewards: [{ type: 'xp', value: 1 }] },
      { name: 'x'.repeat(101) },
      { position: 5001 },
      { claimLimit: -1 },
      { categoryId: UNKNOWN },
      { sprintId: UNKNOWN },
      { archived: 'yes' },
    ]) {
      expectError(await call('PATCH', path, { body }), 400);
    }
  });

  it('answers 404 for an unknown or deleted quest, 403 for a read-only key', async () => {
    const { call } = createTestPlatform();
    expectError(await call('PATCH', `demo/quests/${UNKNOWN}`, { body: {} }), 404);
    expectError(await call('PATCH', `demo/quests/${DEMO.quests.deleted}`, { body: {} }), 404);
    expectError(await call('PATCH', path, { key: DEMO.apiKeys.readOnly, body: {} }), 403);
  });
});
