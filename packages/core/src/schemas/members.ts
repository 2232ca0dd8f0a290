import * as z from 'zod';
import { dateTime, requestUuid } from './fields.js';
import { XP_DESCRIPTION_MAX_LENGTH, XP_ENTRY_MAX, XP_LABEL_MAX_LENGTH } from './limits.js';

/** Body of the member check. */
export const MemberCheckBodySchema = z.object({ userId: requestUuid() });
/** Body of the member check. */
export type MemberCheckBody = z.infer<typeof MemberCheckBodySchema>;

/** Body of XP add and remove: how much, and why. */
export const XpBodySchema = z.object({
  xp: z
    .int()
    .min(1)
    .max(XP_ENTRY_MAX)
    .describe('How much xp to add (or remove): a positive integer.'),
  label: z.string().min(1).max(XP_LABEL_MAX_LENGTH),
  description: z
    .string()
    .max(XP_DESCRIPTION_MAX_LENGTH)
    .nullable()
    .optional()
    .describe('Why, for the member to read; null or absent: none (clients send null).'),
});
/** Body of XP add and remove. */
export type XpBody = z.infer<typeof XpBodySchema>;

/** One XP entry: a change of a member's xp. */
export const XpEntrySchema = z.object({
  id: z.uuid(),
  xp: z.int().describe('The change: positive when added, negative when removed.'),
  label: z.string(),
  description: z.string().nullable(),
  communityId: z.uuid(),
  receiverId: z.uuid().describe('The member whose xp changed.'),
  createdAt: dateTime(),
  updatedAt: dateTime(),
  deleted: z.boolean(),
});
/** One XP entry. */
export interface XpEntry extends z.infer<typeof XpEntrySchema> {}

/** Body of the ban. */
export const BanBodySchema = z.object({
  reason: z.string().min(1).max(XP_DESCRIPTION_MAX_LENGTH).optional(),
});
/** Body of the ban. */
export type BanBody = z.infer<typeof BanBodySchema>;

/** A member's referral code. */
export const ReferralCodeSchema = z.object({ code: z.string().min(1) });
/** A member's referral code. */
export interface ReferralCode extends z.infer<typeof ReferralCodeSchema> {}

/** The answer of secret creation: the secret itself, shown this once. */
export const CommunitySecretSchema = z.object({
  secret: z.string().min(1),
  prefix: z.string().min(1).describe('The first characters of the secret, to recognise it.'),
  createdAt: dateTime(),
});
/** The answer of secret creation. */
export interface CommunitySecret extends z.infer<typeof CommunitySecretSchema> {}

/** The answer of secret reading: which secret is in use, never the secret itself. */
export const CommunitySecretInfoSchema = CommunitySecretSchema.omit({ secret: true });
/** The answer of secret reading. */
export interface CommunitySecretInfo extends z.infer<typeof CommunitySecretInfoSchema> {}
