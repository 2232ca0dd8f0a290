import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as classic from 'zod';
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

// A field's value: mostly strings, often another JSON type, sometimes an object of any shape.
const value = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null)) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);
const pair = (a: string, b: string) =>
  fc.oneof(fc.record({ [a]: value, [b]: value }, { requiredKeys: [] }), value);
const accounts = fc.oneof(
  fc.record(
    {
      email: value,
      wallet: value,
      discord: pair('id', 'handle'),
      twitter: pair('id', 'username'),
      'svc-connect': value,
      extra: value,
    },
    { requiredKeys: [] },
  ),
  value,
);
const claim = fc.record(
  {
    userId: value,
    communityId: value,
    subdomain: value,
    questId: value,
    requestId: value,
    accounts,
    addedLater: value,
  },
  { requiredKeys: [] },
);
const bodies = fc.oneof({ weight: 5, arbitrary: claim }, { weight: 1, arbitrary: fc.jsonValue() });

/** What a parse decides: accepted and the parsed value, or every issue as the verifier reads it. */
function outcome(result: classic.core.util.SafeParseResult<unknown>) {
  if (result.success) return { success: true, data: result.data };
  return {
    success: false,
    issues: result.error.issues.map(({ code, path, message, ...rest }) => ({
      code,
      path,
      message,
      expected: 'expected' in rest ? rest.expected : undefined,
    })),
  };
}

describe('the claim schemas on zod mini', () => {
  it('decide as the classic ones did on 5,000 generated bodies', () => {
    fc.assert(
      fc.property(bodies, (body) => {
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
