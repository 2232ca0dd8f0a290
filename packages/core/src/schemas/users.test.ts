import { describe, expect, it } from 'vitest';
import { describeFields, issuePaths } from './field-cases.testkit.js';
import {
  InviteListItemSchema,
  InviteListSchema,
  InviteSchema,
  ReviewCountsSchema,
  UserBySocialSchema,
  UserSchema,
} from './users.js';

const invite = {
  userId: 'u-2',
  status: 'active',
  joinedAt: '2024-03-01T10:00:00.000Z',
  xp: 120,
};

const profile = {
  connectedWallet: '0x9fB29AAc15b9A4B7F17c3385939b007540f4d791',
  name: 'ada',
  email: 'ada@example.com',
  discordId: '80351110224678912',
  twitterId: '1234567',
  discordHandle: 'ada#0001',
  tiktokUsername: 'ada.tt',
  twitterUsername: 'ada_x',
  referrerUrl: 'https://example.com/blog',
  referrerId: 'u-0',
  banReason: 'spam',
};

const extras = {
  verifiedBlockchainAddresses: { ethereum: '0x9fB29AAc15b9A4B7F17c3385939b007540f4d791' },
  unVerifiedBlockchainAddresses: { solana: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV' },
  invites: [invite],
  restoredAt: '2024-05-01T00:00:00+02:00',
};

const userById = {
  id: 'u-1',
  avatar: 'https://cdn.example.com/a.png',
  ...profile,
  xp: 1500,
  rank: 3,
  level: 7,
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-06-01T00:00:00Z',
  deletedAt: '2024-04-01T00:00:00Z',
  role: 'editor',
  isBanned: false,
  karma: 12,
  ...extras,
};

const userBySocial = {
  id: 'u-1',
  ...profile,
  xp: 1500,
  rank: 3,
  level: 7,
  createdAt: '2024-01-01T00:00:00Z',
  role: 'guest',
  isBanned: false,
  karma: -2,
  ...extras,
};

const profileKeys = Object.keys(profile);

describeFields('User (by id)', UserSchema, userById, {
  required: ['id', 'xp', 'rank', 'level', 'createdAt', 'updatedAt', 'isBanned'],
  nullable: ['avatar', ...profileKeys, 'deletedAt', 'role'],
  optional: ['invites', 'verifiedBlockchainAddresses', 'unVerifiedBlockchainAddresses', 'karma'],
  optionalNullable: ['restoredAt'],
});

describeFields('User (by social identifier)', UserBySocialSchema, userBySocial, {
  required: ['id', 'xp', 'createdAt', 'rank', 'role', 'level', 'isBanned', 'karma'],
  nullable: profileKeys,
  optional: ['invites', 'verifiedBlockchainAddresses', 'unVerifiedBlockchainAddresses'],
  optionalNullable: ['restoredAt'],
});

describeFields('Invite', InviteSchema, invite, {
  required: ['userId', 'status', 'joinedAt', 'xp'],
});

const inviteListItem = {
  ...invite,
  userId: '3f1c2a9e-6b7d-4c1e-9a2b-8d4e5f6a7b8c',
  name: 'grace',
};

describeFields('Invite list item', InviteListItemSchema, inviteListItem, {
  required: ['userId', 'status', 'joinedAt', 'xp'],
  nullable: ['name'],
});

describeFields(
  'Review counts',
  ReviewCountsSchema,
  { flags: 2, stars: 9 },
  {
    required: ['flags', 'stars'],
  },
);

describe('User', () => {
  it.each(['admin', 'editor', 'reviewer', 'guest', 'banned'])('accepts role %s', (role) => {
    expect(issuePaths(UserSchema, { ...userById, role })).toEqual([]);
    expect(issuePaths(UserBySocialSchema, { ...userBySocial, role })).toEqual([]);
  });

  it('rejects a role outside the enum', () => {
    expect(issuePaths(UserSchema, { ...userById, role: 'owner' })).toEqual(['role']);
    expect(issuePaths(UserBySocialSchema, { ...userBySocial, role: 'Admin' })).toEqual(['role']);
  });

  it('needs ISO 8601 date-times with an offset', () => {
    for (const createdAt of [
      '2024-01-01',
      '2024-01-01T00:00:00',
      'yesterday',
      '2024-13-01T00:00:00Z',
    ]) {
      expect(issuePaths(UserSchema, { ...userById, createdAt })).toEqual(['createdAt']);
    }
    expect(
      issuePaths(UserSchema, { ...userById, createdAt: '2024-01-01T08:30:00.5+05:30' }),
    ).toEqual([]);
  });

  it('keeps address maps to strings only', () => {
    const bad = { ...userById, verifiedBlockchainAddresses: { ethereum: 1 } };
    expect(issuePaths(UserSchema, bad)).toEqual(['verifiedBlockchainAddresses.ethereum']);
  });

  it('validates embedded invites', () => {
    const bad = { ...userById, invites: [{ ...invite, status: 'expired' }] };
    expect(issuePaths(UserSchema, bad)).toEqual(['invites.0.status']);
  });

  it('leaves avatar, updatedAt and deletedAt out of the social lookup shape', () => {
    const parsed = UserBySocialSchema.parse({
      ...userBySocial,
      avatar: 'https://cdn.example.com/a.png',
      updatedAt: '2024-06-01T00:00:00Z',
      deletedAt: null,
    });
    expect(parsed).not.toHaveProperty('avatar');
    expect(parsed).not.toHaveProperty('updatedAt');
    expect(parsed).not.toHaveProperty('deletedAt');
  });

  it('requires a non-null role only in the social lookup shape', () => {
    expect(issuePaths(UserSchema, { ...userById, role: null })).toEqual([]);
    expect(issuePaths(UserBySocialSchema, { ...userBySocial, role: null })).toEqual(['role']);
  });
});

describe('Invite', () => {
  it.each(['active', 'pending', 'consumed'])('accepts status %s', (status) => {
    expect(issuePaths(InviteSchema, { ...invite, status })).toEqual([]);
  });

  it('rejects another status', () => {
    expect(issuePaths(InviteSchema, { ...invite, status: 'expired' })).toEqual(['status']);
  });

  it('needs a uuid userId only in the invite list', () => {
    expect(issuePaths(InviteSchema, { ...invite, userId: 'u-2' })).toEqual([]);
    expect(issuePaths(InviteListItemSchema, { ...inviteListItem, userId: 'u-2' })).toEqual([
      'userId',
    ]);
  });

  it('parses an invite list', () => {
    expect(
      issuePaths(InviteListSchema, [inviteListItem, { ...inviteListItem, name: null }]),
    ).toEqual([]);
    expect(issuePaths(InviteListSchema, [invite])).toEqual(['0.userId', '0.name']);
  });
});

describe('Review counts', () => {
  it.each([-1, 1.5])('rejects %s as a count', (flags) => {
    expect(issuePaths(ReviewCountsSchema, { flags, stars: 0 })).toEqual(['flags']);
  });
});
