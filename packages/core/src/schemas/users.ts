import * as z from 'zod';
import { count, dateTime } from './fields.js';

/** The roles a member can hold in a community. */
export const USER_ROLES = ['admin', 'editor', 'reviewer', 'guest', 'banned'] as const;
/** A member's role. */
export const UserRoleSchema = z.enum(USER_ROLES);
/** A member's role. */
export type UserRole = z.infer<typeof UserRoleSchema>;

/** The states of an invite: usable, not usable yet (xp too low), used up. */
export const INVITE_STATUSES = ['active', 'pending', 'consumed'] as const;
/** An invite's state. */
export const InviteStatusSchema = z.enum(INVITE_STATUSES).meta({
  description:
    'active: valid, can be used to claim a quest; pending: the invited user has not reached the ' +
    "community's minimum xp yet; consumed: used to claim a quest, cannot be used again.",
});
/** An invite's state. */
export type InviteStatus = z.infer<typeof InviteStatusSchema>;

/** An invite as embedded in a user object. */
export const InviteSchema = z.object({
  userId: z.string().describe('The invited user.'),
  status: InviteStatusSchema,
  joinedAt: dateTime(),
  xp: z.number().describe('xp of the invited user.'),
});
/** An invite as embedded in a user object. */
export interface Invite extends z.infer<typeof InviteSchema> {}

/** An element of the invite list: the invited user's id is a uuid and the name is added. */
export const InviteListItemSchema = InviteSchema.extend({
  userId: z.uuid().describe('The invited user.'),
  name: z.string().nullable().describe('Username of the invited user.'),
});
/** An element of the invite list: the invited user's id is a uuid and the name is added. */
export interface InviteListItem extends z.infer<typeof InviteListItemSchema> {}

/** The body of the invite list response. */
export const InviteListSchema = z.array(InviteListItemSchema);
/** The body of the invite list response. */
export type InviteList = InviteListItem[];

/** Blockchain addresses of a user (the contract does not show what the keys are). */
export const BlockchainAddressesSchema = z.record(z.string(), z.string());
/** Blockchain addresses of a user (the contract does not show what the keys are). */
export type BlockchainAddresses = z.infer<typeof BlockchainAddressesSchema>;

// Fields both user shapes share with the same status: present, possibly null.
const nullableProfileFields = {
  connectedWallet: z.string().nullable().describe('Address of the wallet the user connected.'),
  name: z.string().nullable().describe('Username.'),
  email: z.string().nullable(),
  discordId: z.string().nullable(),
  twitterId: z.string().nullable(),
  discordHandle: z.string().nullable(),
  tiktokUsername: z.string().nullable(),
  twitterUsername: z.string().nullable(),
  referrerUrl: z.string().nullable().describe('Website the user came from when joining.'),
  referrerId: z.string().nullable().describe('Id of the user that invited this user.'),
  banReason: z.string().nullable().describe('Reason given by an admin.'),
};

// Fields the example payloads show but neither response schema requires.
const optionalExtras = {
  verifiedBlockchainAddresses: BlockchainAddressesSchema.optional().describe(
    'Addresses added through wallet connection, so known to belong to the user.',
  ),
  unVerifiedBlockchainAddresses: BlockchainAddressesSchema.optional().describe(
    'Addresses users typed into their profile, not confirmed.',
  ),
  invites: z.array(InviteSchema).optional(),
  // Named by the contract's general user description only; null tolerated for a never-deleted user.
  restoredAt: dateTime()
    .nullable()
    .optional()
    .describe('Date of restoration of a previously deleted account.'),
};

const karmaDescription = 'Rises when a contribution receives a star and falls when it is flagged.';

/** A user as returned by the lookup by user id. */
export const UserSchema = z.object({
  id: z.string(),
  avatar: z.string().nullable().describe('URL of the avatar.'),
  ...nullableProfileFields,
  xp: z.number().describe('xp in the community.'),
  rank: z.number().describe('Rank in the all-time leaderboard.'),
  level: z.number(),
  createdAt: dateTime(),
  updatedAt: dateTime().describe('Most recent update of the user.'),
  deletedAt: dateTime().nullable().describe('Set when the account was deleted.'),
  role: UserRoleSchema.nullable(),
  isBanned: z.boolean().describe('true when the user is banned.'),
  karma: z.number().optional().describe(karmaDescription),
  ...optionalExtras,
});
/** A user as returned by the lookup by user id. */
export interface User extends z.infer<typeof UserSchema> {}

/**
 * A user as returned by the lookup by social identifier: `role` and `karma` are required and
 * never null; `avatar`, `updatedAt` and `deletedAt` are not part of it.
 */
export const UserBySocialSchema = z.object({
  id: z.string(),
  ...nullableProfileFields,
  xp: z.number().describe('xp in the community.'),
  rank: z.number().describe('Rank in the all-time leaderboard.'),
  level: z.number(),
  createdAt: dateTime(),
  role: UserRoleSchema,
  isBanned: z.boolean().describe('true when the user is banned.'),
  karma: z.number().describe(karmaDescription),
  ...optionalExtras,
});
/**
 * A user as returned by the lookup by social identifier: `role` and `karma` are required and
 * never null; `avatar`, `updatedAt` and `deletedAt` are not part of it.
 */
export interface UserBySocial extends z.infer<typeof UserBySocialSchema> {}

/** A user's review counts: flags and stars received. */
export const ReviewCountsSchema = z.object({
  flags: count(),
  stars: count(),
});
/** A user's review counts: flags and stars received. */
export interface ReviewCounts extends z.infer<typeof ReviewCountsSchema> {}
