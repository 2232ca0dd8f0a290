import { LeaderboardSchema, UserSchema, XpEntrySchema } from '@questkit/core/api';
import { describe, expect, it } from 'vitest';
import { levelForXp } from '../levels.js';
import { DEMO } from '../seed/demo-ids.js';
import { createTestPlatform, expectError, expectShape, type TestPlatform } from '../testkit.js';

const { editor, admin, guest, banned, deleted, reviewer } = DEMO.users;
const UNKNOWN = '99999999-0000-4000-8000-000000000000';

async function user(call: TestPlatform['call'], id: string) {
  return expectShape(UserSchema, (await call('GET', `demo/users/${id}`)).body);
}

async function board(call: TestPlatform['call'], query = '') {
  const answer = await call('GET', `demo/leaderboard?page=1&limit=100${query}`);
  expect(answer.status, answer.text).toBe(200);
  return expectShape(LeaderboardSchema, answer.body);
}

describe('POST /users/{userId}/xp', () => {
  it('records an entry and moves the member’s xp, level and rank with the leaderboard', async () => {
    const { call } = createTestPlatform();
    const before = await user(call, guest);
    const top = (await board(call)).data[0]!;
    const gain = top.xp - before.xp + 1;
    const answer = await call('POST', `demo/users/${guest}/xp`, {
      body: { xp: gain, label: 'Event winner', description: 'Won the quiz' },
    });
    expect(answer.status, answer.text).toBe(200);
    const entry = expectShape(XpEntrySchema, answer.body);
    expect(Object.keys(answer.body as object).sort()).toEqual(
      [
        'id',
        'xp',
        'label',
        'description',
        'communityId',
        'receiverId',
        'createdAt',
        'updatedAt',
        'deleted',
      ].sort(),
    );
    expect(entry).toMatchObject({
      xp: gain,
      label: 'Event winner',
      description: 'Won the quiz',
      communityId: DEMO.communityId,
      receiverId: guest,
      createdAt: '2025-06-01T12:00:00.000Z',
      deleted: false,
    });
    const after = await user(call, guest);
    expect(after.xp).toBe(before.xp + gain);
    expect(after.level).toBe(levelForXp(after.xp));
    expect(after.rank).toBe(1);
    const leaders = await board(call);
    expect(leaders.data[0]).toMatchObject({ userId: guest, xp: after.xp });
    // The former first is second now, and its answer says so.
    expect(leaders.data[1]!.userId).toBe(top.userId);
    expect((await user(call, top.userId)).rank).toBe(2);
  });

  it('never serves a stale rank: a cached member answer follows another member’s xp', async () => {
    const { call } = createTestPlatform();
    const first = await user(call, editor);
    // Asked twice: the second answer comes from the cache of the member's text.
    expect((await user(call, editor)).rank).toBe(first.rank);
    const other = await user(call, guest);
    expect(other.rank).toBeGreaterThan(first.rank);
    await call('POST', `demo/users/${guest}/xp`, {
      body: { xp: first.xp - other.xp + 1, label: 'Catch up' },
    });
    expect((await user(call, editor)).rank).toBe(first.rank + 1);
  });

  it('refuses bad bodies: xp a positive integer, a label, known fields only', async () => {
    const { call } = createTestPlatform();
    for (const body of [
      { xp: 0, label: 'x' },
      { xp: -5, label: 'x' },
      { xp: 1.5, label: 'x' },
      { xp: 2_147_483_648, label: 'x' },
      { xp: 10 },
      { xp: 10, label: '' },
      { xp: 10, label: 'x'.repeat(257) },
      { xp: 10, label: 'x', description: 'y'.repeat(2001) },
      { xp: 10, label: 'x', reason: 'typo' },
    ]) {
      expectError(await call('POST', `demo/users/${guest}/xp`, { body }), 400);
    }
    expect((await user(call, guest)).xp).toBe(0);
  });

  it('needs a read-write key or an admin (403), a member (404), not a banned one (403)', async () => {
    const { call } = createTestPlatform();
    const body = { xp: 5, label: 'x' };
    expectError(
      await call('POST', `demo/users/${guest}/xp`, { key: DEMO.apiKeys.readOnly, body }),
      403,
    );
    expectError(await call('POST', `demo/users/${UNKNOWN}/xp`, { body }), 404, UNKNOWN);
    expectError(await call('POST', `demo/users/${deleted}/xp`, { body }), 404);
    expectError(await call('POST', `demo/users/${DEMO.sandbox.users.guest}/xp`, { body }), 404);
    expectError(await call('POST', `demo/users/${banned}/xp`, { body }), 403, 'banned');
  });
});

describe('DELETE /users/{userId}/xp', () => {
  it('records a negative entry and lowers xp and level', async () => {
    const { call } = createTestPlatform();
    const before = await user(call, admin);
    const answer = await call('DELETE', `demo/users/${admin}/xp`, {
      body: { xp: 10, label: 'Correction' },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(expectShape(XpEntrySchema, answer.body)).toMatchObject({ xp: -10, description: null });
    const after = await user(call, admin);
    expect(after.xp).toBe(before.xp - 10);
    expect(after.level).toBe(levelForXp(after.xp));
  });

  it('accepts description: null as none, as clients send it, both ways', async () => {
    const { call } = createTestPlatform();
    for (const method of ['POST', 'DELETE'] as const) {
      const answer = await call(method, `demo/users/${admin}/xp`, {
        body: { xp: 5, label: 'Ruby client', description: null },
      });
      expect(answer.status, answer.text).toBe(200);
      expect(expectShape(XpEntrySchema, answer.body)).toMatchObject({ description: null });
    }
  });

  it('never takes xp below 0: 409 and nothing changes', async () => {
    const { call } = createTestPlatform();
    const before = await user(call, reviewer);
    const answer = await call('DELETE', `demo/users/${reviewer}/xp`, {
      body: { xp: before.xp + 1, label: 'Too much' },
    });
    expectError(answer, 409, 'below 0');
    expect((await user(call, reviewer)).xp).toBe(before.xp);
    const exact = await call('DELETE', `demo/users/${reviewer}/xp`, {
      body: { xp: before.xp, label: 'All of it' },
    });
    expect(exact.status, exact.text).toBe(200);
    expect((await user(call, reviewer)).xp).toBe(0);
  });

  it('needs a JSON body', async () => {
    const { call } = createTestPlatform();
    expectError(await call('DELETE', `demo/users/${admin}/xp`), 400);
  });
});

describe('POST /users/{userId}/ban', () => {
  it('bans: isBanned, banReason, role banned; off both leaderboards; 200 without content', async () => {
    const { call } = createTestPlatform();
    const before = await board(call);
    const target = before.data[0]!.userId;
    const second = before.data[1]!.userId;
    const answer = await call('POST', `demo/users/${target}/ban`, { body: { reason: 'Spam' } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.text).toBe('');
    expect(await user(call, target)).toMatchObject({
      isBanned: true,
      banReason: 'Spam',
      role: 'banned',
      rank: 0,
    });
    const after = await board(call);
    expect(after.totalRecords).toBe(before.totalRecords - 1);
    expect(after.data.map((row) => row.userId)).not.toContain(target);
    expect((await user(call, second)).rank).toBe(1);
    const sprint = await board(call, `&sprintId=${DEMO.sprints.current}`);
    expect(sprint.data.map((row) => row.userId)).not.toContain(target);
  });

  it('takes the member off the sprint leaderboard too', async () => {
    const { call } = createTestPlatform();
    const query = `&sprintId=${DEMO.sprints.current}`;
    expect((await board(call, query)).data.map((row) => row.userId)).toContain(editor);
    await call('POST', `demo/users/${editor}/ban`, { body: {} });
    expect((await board(call, query)).data.map((row) => row.userId)).not.toContain(editor);
    expect(await user(call, editor)).toMatchObject({ banReason: null, isBanned: true });
  });

  it('refuses the banned member’s claims and token afterwards', async () => {
    const { call } = createTestPlatform();
    const token = await call('POST', '/__mock/tokens', { body: { userId: admin } });
    const { token: bearer } = token.body as { token: string };
    expect((await call('GET', `demo/users/${admin}`, { token: bearer })).status).toBe(200);
    await call('POST', `demo/users/${admin}/ban`, { body: { reason: 'Cheating' } });
    expectError(await call('GET', `demo/users/${admin}`, { token: bearer }), 403, 'banned');
    const claim = await call(
      'POST',
      `/__mock/communities/demo/quests/${DEMO.quests.verifyEmail}/claims`,
      {
        body: { userId: admin },
      },
    );
    expect(claim.body).toMatchObject({ status: 'failed', reason: 'member-not-allowed' });
  });

  it('answers 409 to a second ban (no unban), 404 to a non-member, 403 to a read-only key', async () => {
    const { call } = createTestPlatform();
    expectError(await call('POST', `demo/users/${banned}/ban`, { body: {} }), 409, 'already');
    expectError(await call('POST', `demo/users/${UNKNOWN}/ban`, { body: {} }), 404);
    expectError(await call('POST', `demo/users/${deleted}/ban`, { body: {} }), 404);
    expectError(
      await call('POST', `demo/users/${guest}/ban`, { key: DEMO.apiKeys.readOnly, body: {} }),
      403,
    );
    expectError(await call('POST', `demo/users/${guest}/ban`, { body: { reason: '' } }), 400);
    expectError(await call('POST', `demo/users/${guest}/ban`, { body: { why: 'x' } }), 400);
  });
});
