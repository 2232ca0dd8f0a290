import type { UserRecord } from './records.js';
import type { UserIdentifierKind } from './store.js';

// How identifiers are compared. Emails, hex addresses, Discord handles and Twitter usernames are
// case-insensitive on their platforms; ids and non-hex addresses (Solana's base58) are not.

const HEX_ADDRESS = /^0x[0-9a-fA-F]+$/;

/** The form of an identifier used as an index key. */
export function normalizeIdentifier(kind: UserIdentifierKind, value: string): string {
  const trimmed = value.trim();
  switch (kind) {
    case 'email':
    case 'discordHandle':
      return trimmed.toLowerCase();
    case 'twitterUsername':
      return trimmed.replace(/^@/, '').toLowerCase();
    case 'ethAddress':
    case 'blockchainAddress':
      return HEX_ADDRESS.test(trimmed) ? trimmed.toLowerCase() : trimmed;
    case 'discordId':
    case 'twitterId':
      return trimmed;
  }
}

/** Network part of the index key of an address indexed on every network. */
export const ANY_NETWORK = '*';

/** Every (kind, network, value) a member can be found by. */
export function identifiersOf(
  user: UserRecord,
): Array<{ kind: UserIdentifierKind; network: string; value: string }> {
  const found: Array<{ kind: UserIdentifierKind; network: string; value: string }> = [];
  const add = (kind: UserIdentifierKind, value: string | null, network = '') => {
    if (value) found.push({ kind, network, value: normalizeIdentifier(kind, value) });
  };
  add('email', user.email);
  add('ethAddress', user.connectedWallet);
  add('discordId', user.discordId);
  add('discordHandle', user.discordHandle);
  add('twitterId', user.twitterId);
  add('twitterUsername', user.twitterUsername);
  // Only verified addresses identify a member: unverified ones are typed in by anyone.
  for (const [network, address] of Object.entries(user.verifiedBlockchainAddresses)) {
    add('blockchainAddress', address, network);
    add('blockchainAddress', address, ANY_NETWORK);
  }
  return found;
}
