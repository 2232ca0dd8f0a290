import { type Accounts, IDENTIFICATION_METHODS, type IdentificationMethod } from '@questkit/core';
import type { ConnectionRecord, QuestTaskRecord, UserRecord } from '../store/records.js';

// The `accounts` object of a verification call: one key per identification method the task
// configures, each from what the member linked. Keys are written in the order of
// IDENTIFICATION_METHODS whatever the order of the task's list, so bodies are stable.

/** The identification methods of a task, known ones only, each once, in canonical order. */
export function taskMethods(task: QuestTaskRecord): IdentificationMethod[] {
  const configured = new Set(task.settings.identifications ?? []);
  return IDENTIFICATION_METHODS.filter((method) => configured.has(method));
}

// Network names of tasks (`eth-mainnet`, value seen in the contract) to the chain names the
// member's verified addresses are keyed by (`ethereum`, `polygon`, ...).
const NETWORK_CHAINS: Record<string, string> = {
  'eth-mainnet': 'ethereum',
  'eth-sepolia': 'ethereum',
  'polygon-mainnet': 'polygon',
  'matic-mainnet': 'polygon',
  'base-mainnet': 'base',
  'arb-mainnet': 'arbitrum',
  'opt-mainnet': 'optimism',
  'bnb-mainnet': 'bsc',
  'sol-mainnet': 'solana',
};

/** The chain a task network names: `eth-mainnet` -> `ethereum`; unknown names stay as they are. */
export function chainOfNetwork(network: string): string {
  return NETWORK_CHAINS[network] ?? network.replace(/-mainnet$/, '');
}

/**
 * The member's wallet for a task network. The contract describes `accounts.wallet` as the
 * Ethereum wallet the member authenticated with: on Ethereum (or when the task names no network)
 * that is `connectedWallet`, else the verified Ethereum address. On another network, the address
 * verified on that network. Unverified addresses never count: anyone can type one.
 */
export function walletFor(user: UserRecord, network: string | undefined): string | null {
  const verified = user.verifiedBlockchainAddresses;
  const chain = network === undefined ? 'ethereum' : chainOfNetwork(network);
  if (chain === 'ethereum') return user.connectedWallet ?? verified.ethereum ?? null;
  return (network === undefined ? undefined : verified[network]) ?? verified[chain] ?? null;
}

/** The accounts of a claim, or the methods the member must link first. */
export type AccountsResult =
  | { ok: true; accounts: Accounts | undefined }
  | { ok: false; missing: IdentificationMethod[] };

/**
 * The `accounts` of the verification body for this member and task: absent when the task
 * configures no method; otherwise exactly the configured methods. A method the member has not
 * linked (Discord needs both id and handle, Twitter both id and username) is listed in `missing`.
 */
export function buildAccounts(
  user: UserRecord,
  task: QuestTaskRecord,
  connections: readonly ConnectionRecord[],
): AccountsResult {
  const methods = taskMethods(task);
  if (methods.length === 0) return { ok: true, accounts: undefined };
  const accounts: Accounts = {};
  const missing: IdentificationMethod[] = [];
  for (const method of methods) {
    switch (method) {
      case 'email':
        if (user.email) accounts.email = user.email;
        else missing.push(method);
        break;
      case 'wallet': {
        const wallet = walletFor(user, task.settings.network);
        if (wallet) accounts.wallet = wallet;
        else missing.push(method);
        break;
      }
      case 'discord':
        if (user.discordId && user.discordHandle) {
          accounts.discord = { id: user.discordId, handle: user.discordHandle };
        } else missing.push(method);
        break;
      case 'twitter':
        if (user.twitterId && user.twitterUsername) {
          accounts.twitter = { id: user.twitterId, username: user.twitterUsername };
        } else missing.push(method);
        break;
      case 'svc-connect': {
        const redirectUrl = task.settings.redirectUrl;
        const link = connections.find((c) => c.redirectUrl === redirectUrl);
        if (link) accounts['svc-connect'] = link.identifier;
        else missing.push(method);
        break;
      }
    }
  }
  return missing.length > 0 ? { ok: false, missing } : { ok: true, accounts };
}

/** What a member is asked to do for a missing method. */
export function linkRequest(method: IdentificationMethod, task: QuestTaskRecord): string {
  switch (method) {
    case 'email':
      return 'add an email address to your profile';
    case 'wallet':
      return `connect a wallet${task.settings.network ? ` on ${task.settings.network}` : ''}`;
    case 'discord':
      return 'link your Discord account';
    case 'twitter':
      return 'link your Twitter account';
    case 'svc-connect':
      return `connect your account at ${originOf(task.settings.redirectUrl)}`;
  }
}

function originOf(url: string | undefined): string {
  try {
    return new URL(url ?? '').host || 'the community';
  } catch {
    return 'the community';
  }
}
