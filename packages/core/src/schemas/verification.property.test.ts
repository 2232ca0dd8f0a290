import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as classic from 'zod';
import { claimBodies, outcome } from './claim-bodies.testkit.js';
import { AccountsSchema, VerificationRequestSchema } from './verification.js';

// The claim's schemas as they were written with classic zod, before the mini API: the mini ones
// must accept, reject, strip and report exactly as these did, on any body.
const ClassicAccounts = classic.object({
  email: classic.string().optional(),
  wallet: classic.string().optional(),
  discord: classic.object({ id: classic.string(), handle: classic.string() }).optional(),
  twitter: classic.object({ id: classic.string(), username: classic.string() }).optional(),
  'svc-connect': classic.string().optional(),
});
const ClassicRequest = classic.object({
  userId: classic.string(),
  communityId: classic.string(),
  subdomain: classic.string(),
  questId: classic.string(),
  requestId: classic.string(),
  accounts: ClassicAccounts.optional(),
});

describe('the claim schemas on zod mini', () => {
  it('decide as the classic ones did on 5,000 generated bodies', () => {
    fc.assert(
      fc.property(claimBodies, (body) => {
        expect(outcome(VerificationRequestSchema.safeParse(body))).toEqual(
          outcome(ClassicRequest.safeParse(body)),
        );
        const inner =
          typeof body === 'object' && body !== null ? (body as { accounts?: unknown }) : {};
        expect(outcome(AccountsSchema.safeParse(inner.accounts))).toEqual(
          outcome(ClassicAccounts.safeParse(inner.accounts)),
        );
      }),
      { numRuns: 5_000 },
    );
  });

  it('give the same JSON Schema', () => {
    for (const io of ['input', 'output'] as const) {
      expect(classic.toJSONSchema(VerificationRequestSchema, { io })).toEqual(
        classic.toJSONSchema(ClassicRequest, { io }),
      );
    }
  });
});
