import { describe, expect, it } from 'vitest';
import { createCommunity, SESSION_TTL_MS } from './community.js';

describe('createCommunity', () => {
  it('logs members in by username (any case) and password', async () => {
    const community = createCommunity();
    expect((await community.logIn('Ada', 'ada-demo-password'))?.id).toBe('member-1001');
    expect(await community.logIn('ada', 'ben-demo-password')).toBeNull();
    expect(await community.logIn('nobody', 'ada-demo-password')).toBeNull();
  });

  it('ends sessions at their lifetime, and each session has its own CSRF token', async () => {
    let now = 1_000_000;
    const community = createCommunity(undefined, () => now);
    const session = await community.openSession('member-1001');
    const other = await community.openSession('member-1001');
    const live = await community.session(session);
    expect(live?.member.username).toBe('ada');
    expect(live?.csrf).toMatch(/^[\w-]{43}$/);
    expect((await community.session(other))?.csrf).not.toBe(live?.csrf);
    now += SESSION_TTL_MS;
    expect(await community.session(session)).toBeNull();
    expect(await community.session(undefined)).toBeNull();
  });

  it('keeps the latest link of a member', async () => {
    const community = createCommunity(undefined, () => Date.parse('2025-05-01T00:00:00Z'));
    await community.saveLink('member-1001', 'svc-1');
    expect(await community.saveLink('member-1001', 'svc-2')).toEqual({
      memberId: 'member-1001',
      svcUserId: 'svc-2',
      linkedAt: '2025-05-01T00:00:00.000Z',
    });
    expect((await community.linkOf('member-1001'))?.svcUserId).toBe('svc-2');
    expect(await community.linkOf('member-1002')).toBeNull();
  });
});
