import { isBanned, type UserRecord } from './records.js';
import { type Compare, insertSorted, lowerBound, removeSorted } from './sorted.js';

// The all-time leaderboard of each community, kept sorted as members change, so a member's rank
// is a binary search and a leaderboard page a slice. A community's list is built (one sort) the
// first time it is read and kept up to date from then on: seeding 100k members costs no sorted
// insert each.

/** Whether a member is on the leaderboard: neither deleted nor banned. */
export function isRanked(user: UserRecord): boolean {
  return user.deletedAt === null && !isBanned(user);
}

/** The leaderboard's order: xp, highest first, then id (a total order: ranks never tie). */
export const byXpThenId: Compare<UserRecord> = (a, b) =>
  b.xp - a.xp || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The rankings of every community. */
export interface Rankings {
  /** Call on every write of a member, with the record it replaces. */
  changed(previous: UserRecord | undefined, next: UserRecord): void;
  ranked(communityId: string): readonly UserRecord[];
  rankOf(user: UserRecord): number;
}

/** Rankings over `members` (every member of every community, live). */
export function createRankings(members: () => Iterable<UserRecord>): Rankings {
  const lists = new Map<string, UserRecord[]>();
  const build = (communityId: string): UserRecord[] => {
    let list = lists.get(communityId);
    if (!list) {
      list = [];
      for (const user of members()) {
        if (user.communityId === communityId && isRanked(user)) list.push(user);
      }
      list.sort(byXpThenId);
      lists.set(communityId, list);
    }
    return list;
  };
  return {
    changed(previous, next) {
      if (previous) {
        const list = lists.get(previous.communityId);
        if (list && isRanked(previous)) removeSorted(list, previous, byXpThenId);
      }
      const list = lists.get(next.communityId);
      if (list && isRanked(next)) insertSorted(list, next, byXpThenId);
    },
    ranked: build,
    rankOf(user) {
      if (!isRanked(user)) return 0;
      const list = build(user.communityId);
      const index = lowerBound(list, user, byXpThenId);
      return list[index]?.id === user.id ? index + 1 : 0;
    },
  };
}
