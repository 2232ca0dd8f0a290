import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claimBodies, outcome } from '../schemas/claim-bodies.testkit.js';
import { VerificationRequestSchema } from '../schemas/verification.js';
import { claimSchema as asWritten } from './claim-schema.js';
import { claimSchema as onNode } from './claim-schema.node.js';

const CLAIM = {
  userId: 'u-1',
  communityId: 'c-1',
  subdomain: 'acme',
  questId: 'q-1',
  requestId: 'r-1',
};

// Bodies a generator seldom makes: prototype keys, getters' names, odd strings, deep accounts.
const EDGES: unknown[] = [
  JSON.parse(
    '{"__proto__":{"userId":"x"},"communityId":"c","subdomain":"s","questId":"q","requestId":"r"}',
  ),
  JSON.parse(`{"__proto__":{"polluted":true},${JSON.stringify(CLAIM).slice(1)}`),
  { ...CLAIM, constructor: 'x', toString: 1, hasOwnProperty: null },
  { ...CLAIM, userId: '' },
  { ...CLAIM, userId: '\u0000\ud800 é 👾' },
  { ...CLAIM, accounts: null },
  { ...CLAIM, accounts: [] },
  { ...CLAIM, accounts: { discord: { id: '1', handle: 'h', extra: 1 }, email: 'a@b.c', other: 2 } },
  { ...CLAIM, accounts: { discord: { id: 1, handle: 'h' } } },
  { ...CLAIM, accounts: { twitter: { id: '1' } } },
  { ...CLAIM, accounts: { 'svc-connect': undefined } },
  { ...CLAIM, userId: undefined },
  Object.create(null),
  Object.assign(Object.create(null), CLAIM),
  Object.assign(Object.create({ userId: 'inherited' }), { ...CLAIM, userId: undefined }),
  [],
  'text',
  null,
];

describe("the claim's schema as the verifier checks claims", () => {
  it('is the compiled one on Node, the schema as written elsewhere', () => {
    // The package's `imports` map, resolved as Node resolves it (its `node` condition).
    expect(import.meta.resolve('#claim-schema')).toMatch(
      /\/dist\/verifier\/claim-schema\.node\.js$/,
    );
    expect(onNode).not.toBe(VerificationRequestSchema);
    expect(asWritten).toBe(VerificationRequestSchema);
  });

  it('decides as the written schema on the edge cases: value, issues, paths and messages', () => {
    for (const body of EDGES) {
      expect(outcome(onNode.safeParse(body))).toEqual(
        outcome(VerificationRequestSchema.safeParse(body)),
      );
    }
  });

  it('decides as the written schema on 5,000 generated bodies', () => {
    fc.assert(
      fc.property(claimBodies, (body) => {
        expect(outcome(onNode.safeParse(body))).toEqual(
          outcome(VerificationRequestSchema.safeParse(body)),
        );
      }),
      { numRuns: 5_000 },
    );
  });

  it('builds a new value and leaves the body as it was', () => {
    const body = { ...CLAIM, accounts: { email: 'a@b.c', extra: 1 }, extra: 2 };
    const before = structuredClone(body);
    const result = onNode.safeParse(body);
    expect(result.success && result.data).toEqual({ ...CLAIM, accounts: { email: 'a@b.c' } });
    expect(result.success && result.data).not.toBe(body);
    expect(body).toEqual(before);
  });
});
