import { ReferralCodeSchema } from '@questkit/core/api';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../seed/demo-ids.js';
import { createTestPlatform, expectShape } from '../testkit.js';

const codeOf = async (platform: ReturnType<typeof createTestPlatform>, userId: string) =>
  expectShape(
    ReferralCodeSchema,
    (await platform.call('GET', `demo/users/${userId}/referral-code`)).body,
  ).code;

// The route answers a member their own code only; a code anyone can compute from the public
// member id would make that protection worthless.
describe('referral codes are keyed with a per-platform secret', () => {
  it('two platforms give one member two different codes', async () => {
    const first = await codeOf(createTestPlatform(), DEMO.users.admin);
    const second = await codeOf(createTestPlatform(), DEMO.users.admin);
    expect(first).not.toBe(second);
  });

  it('one secret gives the same codes, on every call and across platforms', async () => {
    const referralSecret = 'referral-secret-for-this-test';
    const first = createTestPlatform({ referralSecret });
    const second = createTestPlatform({ referralSecret });
    const code = await codeOf(first, DEMO.users.admin);
    expect(await codeOf(first, DEMO.users.admin)).toBe(code);
    expect(await codeOf(second, DEMO.users.admin)).toBe(code);
    expect(await codeOf(first, DEMO.users.editor)).not.toBe(code);
    expect(code).toMatch(/^[0-9A-Z]{14}$/);
  });

  it('refuses a short secret at start-up', () => {
    expect(() => createTestPlatform({ referralSecret: 'short' })).toThrow(/referralSecret/);
  });
});
