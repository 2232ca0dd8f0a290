import {
  createManualClock,
  createMockPlatform,
  DEMO,
  type MockServer,
  startMockServer,
} from '@questkit/mock-platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from './index.js';

// XP, bans and the leaderboards through the client, over real HTTP on loopback. 314 generated +
// 10 named members, less the seeded banned and deleted ones: the 322 on the leaderboard that
// clients reported paging wrongly (300 of 322 at 100 a page).

let mock: MockServer;
const client = () =>
  createClient({ baseUrl: mock.url, subdomain: 'demo', apiKey: DEMO.apiKeys.readWrite });

beforeAll(async () => {
  mock = await startMockServer(
    createMockPlatform({
      clock: createManualClock('2025-06-01T12:00:00.000Z'),
      rateLimit: false,
      endpointChecks: false,
      seed: { users: 314 },
    }),
    { port: 0 },
  );
});
afterAll(() => mock.close());

describe('the leaderboard through the client', () => {
  it('paginate walks all 322 members at 100 a page, each once, totalPages 4', async () => {
    const api = client();
    const first = await api.getLeaderboard({ page: 1, limit: 100 });
    expect(first).toMatchObject({ totalRecords: 322, totalPages: 4, page: 1 });
    const seen: string[] = [];
    for await (const row of api.paginate('getLeaderboard', { limit: 100 })) seen.push(row.userId);
    expect(seen).toHaveLength(322);
    expect(new Set(seen).size).toBe(322);
    const last = await api.getLeaderboard({ page: 4, limit: 100 });
    expect(last.data).toHaveLength(22);
  });

  it('XP moves a member up the all-time and sprint leaderboards and their rank with it', async () => {
    const api = client();
    const guest = DEMO.users.guest;
    const before = await api.getUser({ userId: guest });
    const top = (await api.getLeaderboard({ page: 1, limit: 1 })).data[0]!;
    const entry = await api.addXp({
      userId: guest,
      body: { xp: top.xp - before.xp + 5, label: 'Hackathon winner' },
    });
    expect(entry).toMatchObject({ receiverId: guest, label: 'Hackathon winner', deleted: false });
    const after = await api.getUser({ userId: guest });
    expect(after.rank).toBe(1);
    expect(after.xp).toBe(top.xp + 5);
    expect((await api.getLeaderboard({ page: 1, limit: 1 })).data[0]!.userId).toBe(guest);
    expect((await api.getUser({ userId: top.userId })).rank).toBe(2);
    const [sprint] = (await api.listSprints({ onlyCurrent: true })).data;
    const sprintBoard = await api.getLeaderboard({ page: 1, limit: 10, sprintId: sprint!.id });
    expect(sprintBoard.data[0]).toMatchObject({ userId: guest, xp: entry.xp });
    // Removed again: back down.
    await api.removeXp({ userId: guest, body: { xp: entry.xp, label: 'Disqualified' } });
    expect((await api.getUser({ userId: guest })).rank).toBe(before.rank);
  });

  it('a ban refuses the member’s claims and takes them off both leaderboards', async () => {
    const api = client();
    const target = DEMO.users.editor;
    const [sprint] = (await api.listSprints({ onlyCurrent: true })).data;
    const ids = async (sprintId?: string) => {
      const rows: string[] = [];
      for await (const row of api.paginate('getLeaderboard', { limit: 100, sprintId })) {
        rows.push(row.userId);
      }
      return rows;
    };
    expect(await ids()).toContain(target);
    expect(await ids(sprint!.id)).toContain(target);
    expect(await api.banUser({ userId: target, body: { reason: 'Bot account' } })).toBeUndefined();
    expect(await api.getUser({ userId: target })).toMatchObject({
      isBanned: true,
      banReason: 'Bot account',
      role: 'banned',
    });
    expect(await ids()).not.toContain(target);
    expect(await ids(sprint!.id)).not.toContain(target);
    const claim = await fetch(
      `${mock.url}/__mock/communities/demo/quests/${DEMO.quests.verifyEmail}/claims`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userId: target }),
      },
    );
    expect(await claim.json()).toMatchObject({ status: 'failed', reason: 'member-not-allowed' });
    await expect(api.banUser({ userId: target, body: {} })).rejects.toMatchObject({ status: 409 });
  });

  it('checks members, reads the referral code, rotates the secret, updates a quest', async () => {
    const api = client();
    expect(await api.checkMember({ body: { userId: DEMO.users.admin } })).toBeUndefined();
    await expect(
      api.checkMember({ body: { userId: DEMO.sandbox.users.guest } }),
    ).rejects.toMatchObject({ status: 404 });
    const { code } = await api.getReferralCode({ userId: DEMO.users.admin });
    expect((await api.getReferralCode({ userId: DEMO.users.admin })).code).toBe(code);
    const secret = await api.createSecret({});
    expect(await api.getSecret({})).toEqual({ prefix: secret.prefix, createdAt: secret.createdAt });
    const quest = await api.updateQuest({
      questId: DEMO.quests.followOnX,
      body: { name: 'Follow us on X', claimLimit: 3 },
    });
    expect(quest).toMatchObject({
      id: DEMO.quests.followOnX,
      name: 'Follow us on X',
      claimLimit: 3,
    });
  });
});
