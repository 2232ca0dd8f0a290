import { describe, expect, it } from 'vitest';
import { describeFields, issuePaths } from './field-cases.testkit.js';
import {
  AccountsSchema,
  VerificationRequestSchema,
  VerificationResponseSchema,
} from './verification.js';

const accounts = {
  email: 'ada@example.com',
  wallet: '0x9fB29AAc15b9A4B7F17c3385939b007540f4d791',
  discord: { id: '80351110224678912', handle: 'ada' },
  twitter: { id: '1234567', username: 'ada_x' },
  'svc-connect': 'platform-user-1',
};

const request = {
  userId: 'u-1',
  communityId: 'c-1',
  subdomain: 'demo',
  questId: 'q-1',
  requestId: 'r-1',
  accounts,
};

describeFields('Verification request', VerificationRequestSchema, request, {
  required: ['userId', 'communityId', 'subdomain', 'questId', 'requestId'],
  optional: ['accounts'],
});

describeFields('Accounts', AccountsSchema, accounts, { optional: Object.keys(accounts) });

describe('Verification request', () => {
  it.each([
    ['discord', { id: '1' }, 'accounts.discord.handle'],
    ['twitter', { username: 'x' }, 'accounts.twitter.id'],
  ])('needs both keys of accounts.%s', (key, value, path) => {
    const body = { ...request, accounts: { [key]: value } };
    expect(issuePaths(VerificationRequestSchema, body)).toEqual([path]);
  });

  it('drops unknown keys from the parsed value', () => {
    const parsed = VerificationRequestSchema.parse({ ...request, addedLater: 1 });
    expect(parsed).not.toHaveProperty('addedLater');
  });
});

describe('Verification response', () => {
  it.each([
    [{ message: 'Claimed' }, true],
    [{ message: '' }, false],
    [{ message: '   ' }, false],
    [{ message: 1 }, false],
    [{}, false],
  ])('%j accepted: %s', (body, accepted) => {
    expect(VerificationResponseSchema.safeParse(body).success).toBe(accepted);
  });
});
