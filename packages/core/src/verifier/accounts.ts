import type { Accounts, IdentificationMethod } from '../schemas/verification.js';
import { IDENTIFICATION_METHODS } from '../schemas/verification.js';

/** The methods in `required` whose account the claim lacks, in the contract's order. */
export function missingAccounts(
  accounts: Accounts,
  required: ReadonlySet<IdentificationMethod>,
): IdentificationMethod[] {
  if (required.size === 0) return [];
  return IDENTIFICATION_METHODS.filter(
    (method) => required.has(method) && !hasAccount(accounts, method),
  );
}

function hasAccount(accounts: Accounts, method: IdentificationMethod): boolean {
  const value = accounts[method];
  if (typeof value === 'string') return value.trim() !== '';
  return value !== undefined;
}

const ACCOUNT_LABELS: Record<IdentificationMethod, string> = {
  email: 'email address',
  wallet: 'wallet',
  discord: 'Discord account',
  twitter: 'X (Twitter) account',
  'svc-connect': 'community account (Connect)',
};

/** "Discord account and email address": the accounts to link, as the member reads them. */
export function listAccounts(methods: readonly IdentificationMethod[]): string {
  const labels = methods.map((method) => ACCOUNT_LABELS[method]);
  return labels.length === 1
    ? labels[0]!
    : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
}
