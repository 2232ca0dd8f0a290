import type { Invite, InviteListItem, ReviewCounts, User, UserBySocial } from '@questkit/core';
import type { InviteRecord, UserRecord } from '../store/records.js';
import type { Store } from '../store/store.js';

// The two user shapes of the contract differ: the lookup by id has avatar, updatedAt and
// deletedAt and a nullable role; the lookup by social identifier has karma and a role never null.
// Each view lists exactly the fields of its table, in the table's order.

function embeddedInvites(store: Store, userId: string): Invite[] {
  return store.invites.listByInviter(userId).map((invite) => ({
    userId: invite.userId,
    status: invite.status,
    joinedAt: invite.joinedAt,
    xp: store.users.get(invite.userId)?.xp ?? 0,
  }));
}

/**
 * The records a user answer reads besides the member, in a fixed order: the community's ranking
 * (the member's rank moves when another member's xp passes theirs, or another is banned), then
 * each invite of the member and its invitee (for the invitee's xp). A cached answer is kept while
 * these are the same objects.
 */
export function userViewReads(store: Store, user: UserRecord): object[] {
  const reads: object[] = [store.users.rankingVersion(user.communityId)];
  for (const invite of store.invites.listByInviter(user.id)) {
    reads.push(invite);
    const invitee = store.users.get(invite.userId);
    if (invitee) reads.push(invitee);
  }
  return reads;
}

/** The answer of the lookup by user id. */
export function userById(store: Store, user: UserRecord): User {
  return {
    id: user.id,
    avatar: user.avatar,
    connectedWallet: user.connectedWallet,
    name: user.name,
    email: user.email,
    discordId: user.discordId,
    twitterId: user.twitterId,
    discordHandle: user.discordHandle,
    tiktokUsername: user.tiktokUsername,
    twitterUsername: user.twitterUsername,
    verifiedBlockchainAddresses: { ...user.verifiedBlockchainAddresses },
    unVerifiedBlockchainAddresses: { ...user.unVerifiedBlockchainAddresses },
    xp: user.xp,
    rank: store.users.rankOf(user),
    level: user.level,
    invites: embeddedInvites(store, user.id),
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
    deletedAt: user.deletedAt,
    referrerUrl: user.referrerUrl,
    referrerId: user.referrerId,
    banReason: user.banReason,
    role: user.role,
    isBanned: user.isBanned,
  };
}

/**
 * The answer of the lookup by social identifier. `role` is never null in this shape: a member
 * without a role is shown as `guest`, the role a member has by default.
 */
export function userBySocial(store: Store, user: UserRecord): UserBySocial {
  return {
    id: user.id,
    xp: user.xp,
    createdAt: user.createdAt,
    rank: store.users.rankOf(user),
    role: user.role ?? 'guest',
    level: user.level,
    isBanned: user.isBanned,
    karma: user.karma,
    discordHandle: user.discordHandle,
    tiktokUsername: user.tiktokUsername,
    twitterUsername: user.twitterUsername,
    connectedWallet: user.connectedWallet,
    email: user.email,
    discordId: user.discordId,
    twitterId: user.twitterId,
    name: user.name,
    referrerUrl: user.referrerUrl,
    referrerId: user.referrerId,
    banReason: user.banReason,
    verifiedBlockchainAddresses: { ...user.verifiedBlockchainAddresses },
    unVerifiedBlockchainAddresses: { ...user.unVerifiedBlockchainAddresses },
    invites: embeddedInvites(store, user.id),
  };
}

/** An element of the invite list. */
export function inviteListItem(store: Store, invite: InviteRecord): InviteListItem {
  const invited = store.users.get(invite.userId);
  return {
    userId: invite.userId,
    status: invite.status,
    joinedAt: invite.joinedAt,
    xp: invited?.xp ?? 0,
    name: invited?.name ?? null,
  };
}

/** The answer of the review counts route. */
export function reviewCounts(user: UserRecord): ReviewCounts {
  return { flags: user.flags, stars: user.stars };
}
