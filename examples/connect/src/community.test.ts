import { describe, expect, it } from 'vitest';
import { createCommunity, SESSION_TTL_MS } from './community.js';

describe('createCommunity', () => {
  it('logs members in by username (any case) and password', async () => {
    const community = createCommunity();
    expect((await community.logIn('Ada', 'ada-demo-password'))?.id).toBe('member-1001');
    expect(await community.logIn('ada', 'ben-demo-password')).toBeNull();
    expect(await community.logIn('nobody', 'ada-demo-password')).toBeNull();
  });

  it('ends sessions at their lifetime', () => {
    let now = 1_000_000;
    const community = createCommunity(undefined, () => now);
    const session = community.openSession('member-1001');
    expect(community.sessionMember(session)?.username).toBe('ada');
    now += SESSION_TTL_MS;
    expect(community.sessionMember(session)).toBeNull();
    expect(community.sessionMember(undefined)).toBeNull();
  });

  it('keeps the latest link of a member', () => {
    const community = createCommunity(undefined, () => Date.parse('2025-05-01T00:00:00Z'));
    community.saveLink('member-1001', 'svc-1');
    expect(community.saveLink('member-1001', 'svc-2')).toEqual({
      memberId: 'member-1001',
      svcUserId: 'svc-2',
      linkedAt: '2025-05-01T00:00:00.000Z',
    });
    expect(community.linkOf('member-1001')?.svcUserId).toBe('svc-2');
    expect(community.linkOf('member-1002')).toBeNull();
  });
});
