import type { IdentificationMethod, ProjectOptions } from '../options.js';

/** A member who did the quest, per identification method: the sample the tests claim with. */
export const SAMPLE_ACCOUNTS: Record<IdentificationMethod, unknown> = {
  email: 'ada@example.com',
  wallet: '0x52908400098527886e0f7030069857d2e4169ee7',
  discord: { id: '80351110224678912', handle: 'ada' },
  twitter: { id: '2244994945', username: 'ada' },
  'svc-connect': 'member-1',
};

/** What the sample `verify` looks the member up by: the first required account, else the user id. */
function lookup(requires: readonly IdentificationMethod[]): { expression: string; sample: string } {
  switch (requires[0]) {
    case 'email':
      return { expression: 'accounts.email.trim().toLowerCase()', sample: 'ada@example.com' };
    case 'wallet':
      return {
        expression: 'accounts.wallet.toLowerCase()',
        sample: '0x52908400098527886e0f7030069857d2e4169ee7',
      };
    case 'discord':
      return { expression: 'accounts.discord.id', sample: '80351110224678912' };
    case 'twitter':
      return { expression: 'accounts.twitter.id', sample: '2244994945' };
    case 'svc-connect':
      return { expression: "accounts['svc-connect']", sample: 'member-1' };
    default:
      return { expression: 'claim.userId', sample: 'member-1' };
  }
}

/** The claim's user id the tests use, and the accounts they send. */
export function sampleClaim(requires: readonly IdentificationMethod[]): {
  userId: string;
  accounts: Record<string, unknown>;
} {
  return {
    userId: 'member-1',
    accounts: Object.fromEntries(requires.map((method) => [method, SAMPLE_ACCOUNTS[method]])),
  };
}

/** `quest.ts`: the accounts the quest requires and the `verify` to fill in. */
export function questFile(options: ProjectOptions): string {
  const { expression, sample } = lookup(options.requires);
  const requires = options.requires.map((method) => `'${method}'`).join(', ');
  const uses = [options.requires.length > 0 ? 'accounts' : 'claim', 'signal'].join(', ');
  return `import { fail, ok, type VerifyHandler } from '@questkit/core';

/**
 * The accounts the platform must send with every claim: the task's identification methods. A
 * claim without one is answered 400 asking the member to link it, before \`verify\` runs. Tick
 * the same methods in the task's settings on the platform.
 */
export const REQUIRES = [${requires}] as const;

// Replace with a lookup in your own data (database, mailing list, API): who did what the quest asks.
const completed = new Set(['${sample}']);

/**
 * Decides one claim: \`ok(message)\` completes the task, \`fail(message)\` tells the member what is
 * missing (the platform shows it with the claim's requestId). Pass \`signal\` to your fetch and
 * database calls: it aborts at the deadline, before the platform's 10 s.
 */
export const verify: VerifyHandler<(typeof REQUIRES)[number]> = async ({ ${uses} }) => {
  signal.throwIfAborted();
  return completed.has(${expression})
    ? ok('Thanks! Quest complete.')
    : fail('We could not find that you did this yet. Do what the quest asks, then claim again.');
};
`;
}
