import type { MockContext } from '../context.js';
import { type ApiFailure, apiError } from '../errors.js';
import { randomId } from '../ids.js';
import { levelForXp } from '../levels.js';
import { findMember, memberNotFound } from '../members.js';
import { isRanked } from '../store/ranking.js';
import {
  type CommunityRecord,
  isBanned,
  type SprintRecord,
  type UserRecord,
  type XpEntryRecord,
} from '../store/records.js';
import type { ReviewerRecord } from '../store/reviews.js';
import type { Store } from '../store/store.js';
import { cancelPendingReviews } from './review-cancel.js';

/** Who acts when no caller is named (a ban from a script through the service). */
export const PLATFORM_REVIEWER: ReviewerRecord = { id: 'platform', name: 'platform', avatar: null };

// XP, bans and the leaderboards: every change of a member's xp goes through `grantXp`, so the
// member's xp, level and rank, the XP entries and both leaderboards always agree. The rank is the
// member's place on the all-time leaderboard (store.users.getRank), kept by the store as members
// change; every member write moves the store's version, so no cached answer shows an old rank.

/** What an XP change is: how much (negative removes), why, and the quest it rewards if any. */
export interface XpGrant {
  /** The change: positive adds, negative removes. Zero is refused. */
  xp: number;
  label: string;
  description?: string | null;
  /** The quest whose reward this is (claims, reviews): sprints with included quests count it. */
  questId?: string | null;
}

/**
 * Changes a member's xp from any source (manual entry, quest reward, review bonus): records the
 * XP entry and updates the member's xp and level; their rank and the leaderboards follow. A
 * member's xp never goes below 0 (questkit's choice, the platform's documentation is silent): a
 * removal of more than the member has is a 409 and changes nothing. Banned members (403) and
 * deleted ones (404) get no xp.
 */
export function grantXp(
  context: Pick<MockContext, 'store' | 'clock'>,
  community: CommunityRecord,
  userId: string,
  grant: XpGrant,
): XpEntryRecord | ApiFailure {
  const { store, clock } = context;
  const user = findMember(store, community, userId);
  if (!user || user.deletedAt !== null) return memberNotFound(userId, community);
  if (isBanned(user)) {
    return apiError(403, `User ${userId} is banned: banned members get no xp`);
  }
  if (!Number.isInteger(grant.xp) || grant.xp === 0) {
    return apiError(400, 'An xp change is a non-zero integer');
  }
  const total = user.xp + grant.xp;
  if (total < 0) {
    return apiError(
      409,
      `User ${userId} has ${user.xp} xp: removing ${-grant.xp} would go below 0`,
    );
  }
  const at = clock.now().toISOString();
  const entry: XpEntryRecord = {
    id: randomId(),
    communityId: community.id,
    receiverId: user.id,
    xp: grant.xp,
    label: grant.label,
    description: grant.description ?? null,
    questId: grant.questId ?? null,
    createdAt: at,
    updatedAt: at,
    deleted: false,
  };
  store.xpEntries.put(entry);
  store.users.put({ ...user, xp: total, level: levelForXp(total), updatedAt: at });
  activateInvite(store, user, total);
  return entry;
}

/** The invite of a member turns active when the member reaches the community's minimum xp. */
export function activateInvite(store: Store, user: UserRecord, xp: number): void {
  if (!user.referrerId) return;
  const community = store.communities.get(user.communityId);
  const invite = store.invites
    .listByInviter(user.referrerId)
    .find((candidate) => candidate.userId === user.id);
  if (community && invite?.status === 'pending' && xp >= community.inviteMinXp) {
    store.invites.put({ ...invite, status: 'active' });
  }
}

/**
 * Bans a member: role `banned`, `isBanned`, `banReason`; from then on the member cannot claim,
 * is refused by the public API and is off both leaderboards (the others behind move up). 404 for
 * a non-member or a deleted one, 409 when already banned (there is no unban).
 */
export function banMember(
  context: Pick<MockContext, 'store' | 'clock' | 'hooks'>,
  community: CommunityRecord,
  userId: string,
  reason: string | null,
  /** Who bans, named as the reviewer of the cancelled reviews' events. */
  by: ReviewerRecord = PLATFORM_REVIEWER,
): UserRecord | ApiFailure {
  const { store, clock } = context;
  const user = findMember(store, community, userId);
  if (!user || user.deletedAt !== null) return memberNotFound(userId, community);
  if (isBanned(user)) {
    return apiError(409, `User ${userId} is already banned`);
  }
  const banned: UserRecord = {
    ...user,
    role: 'banned',
    isBanned: true,
    banReason: reason,
    updatedAt: clock.now().toISOString(),
  };
  store.users.put(banned);
  // A ban cancels the member's pending reviews, each recorded as a `cancel` review event.
  cancelPendingReviews(context, user.id, by, reason);
  context.hooks?.memberBanned?.(community, banned);
  return banned;
}

/** One member's score on a leaderboard. */
export interface LeaderboardEntry {
  user: UserRecord;
  xp: number;
  numberOfQuests: number;
}

/** Whether an XP entry counts for a sprint: made within its dates, from an included quest. */
export function countsForSprint(entry: XpEntryRecord, sprint: SprintRecord): boolean {
  const at = Date.parse(entry.createdAt);
  if (at < Date.parse(sprint.startingAt) || at >= Date.parse(sprint.endingAt)) return false;
  if (sprint.includedQuestsIds.length === 0) return true;
  return entry.questId !== null && sprint.includedQuestsIds.includes(entry.questId);
}

/**
 * The all-time leaderboard: members neither deleted nor banned, by xp (highest first) then id;
 * the place of each is their `rank`. `numberOfQuests` counts the quests each claimed.
 */
export function allTimeLeaderboard(store: Store, community: CommunityRecord): LeaderboardEntry[] {
  const quests = questsClaimed(store, community);
  return store.users.listRanked(community.id).map((user) => ({
    user,
    xp: user.xp,
    numberOfQuests: quests.get(user.id) ?? 0,
  }));
}

/**
 * A sprint's leaderboard: the xp each member earned within the sprint's dates (from its included
 * quests when it lists some), for members who earned some; banned and deleted members are absent.
 * Same order as all-time. `numberOfQuests` counts the quests rewarded within the sprint.
 */
export function sprintLeaderboard(
  store: Store,
  community: CommunityRecord,
  sprint: SprintRecord,
): LeaderboardEntry[] {
  const scores = new Map<string, { xp: number; quests: Set<string> }>();
  for (const entry of store.xpEntries.listByCommunity(community.id)) {
    if (!countsForSprint(entry, sprint)) continue;
    let score = scores.get(entry.receiverId);
    if (!score) {
      score = { xp: 0, quests: new Set() };
      scores.set(entry.receiverId, score);
    }
    score.xp += entry.xp;
    if (entry.questId !== null) score.quests.add(entry.questId);
  }
  const board: LeaderboardEntry[] = [];
  for (const [userId, score] of scores) {
    const user = store.users.get(userId);
    if (!user || !isRanked(user)) continue;
    board.push({ user, xp: score.xp, numberOfQuests: score.quests.size });
  }
  return board.sort(
    (a, b) => b.xp - a.xp || (a.user.id < b.user.id ? -1 : a.user.id > b.user.id ? 1 : 0),
  );
}

/** Quests each member of the community claimed at least once, by member id. */
function questsClaimed(store: Store, community: CommunityRecord): Map<string, number> {
  const counts = new Map<string, number>();
  for (const claim of store.claims.list()) {
    if (claim.communityId === community.id && claim.claims > 0) {
      counts.set(claim.userId, (counts.get(claim.userId) ?? 0) + 1);
    }
  }
  return counts;
}

/** The sprint running at `now` (at most one does), if any. */
export function currentSprint(
  store: Store,
  community: CommunityRecord,
  now: Date,
): SprintRecord | undefined {
  const time = now.getTime();
  return store.sprints
    .listByCommunity(community.id)
    .find((sprint) => Date.parse(sprint.startingAt) <= time && time < Date.parse(sprint.endingAt));
}
