import fc from 'fast-check';
import type * as classic from 'zod';

// Claim bodies as fast-check generates them, and what a parse of one decides: shared by the tests
// that hold two ways of checking a claim to the same verdicts.

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
/** Any JSON body, mostly claim-shaped: fields of every JSON type, some missing, some unknown. */
export const claimBodies = fc.oneof(
  { weight: 5, arbitrary: claim },
  { weight: 1, arbitrary: fc.jsonValue() },
);

/** What a parse decides: accepted and the parsed value, or every issue as the verifier reads it. */
export function outcome(result: classic.core.util.SafeParseResult<unknown>) {
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
