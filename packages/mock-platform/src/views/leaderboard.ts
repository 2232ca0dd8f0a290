import {
  type LeaderboardRecord,
  LeaderboardRecordSchema,
  type Sprint,
  SprintSchema,
  type XpEntry,
  XpEntrySchema,
} from '@questkit/core/api';
import type { SprintRecord, UserRecord, XpEntryRecord } from '../store/records.js';

/** A member on a leaderboard: the xp counted there and the quests claimed. */
export function leaderboardRecord(entry: {
  user: UserRecord;
  xp: number;
  numberOfQuests: number;
}): LeaderboardRecord {
  const { user } = entry;
  return LeaderboardRecordSchema.parse({
    ...user,
    userId: user.id,
    xp: entry.xp,
    address: user.connectedWallet,
    numberOfQuests: entry.numberOfQuests,
    ethAddress: user.verifiedBlockchainAddresses.ethereum ?? null,
  });
}

/** A sprint as the contract shows it. */
export function sprintView(sprint: SprintRecord): Sprint {
  return SprintSchema.parse(sprint);
}

/** An XP entry as the contract shows it (the quest it rewards stays the mock's). */
export function xpEntryView(entry: XpEntryRecord): XpEntry {
  return XpEntrySchema.parse(entry);
}
