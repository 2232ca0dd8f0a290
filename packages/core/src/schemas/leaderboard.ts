import * as z from 'zod';
import { count, dateTime, queryInt, requestUuid } from './fields.js';
import {
  LEADERBOARD_LIMIT_MAX,
  LEADERBOARD_LIMIT_MIN,
  LEADERBOARD_PAGE_MAX,
  LEADERBOARD_PAGE_MIN,
} from './limits.js';
import { RichTextNodeSchema } from './rich-text.js';

/** Query of the leaderboard: `page` and `limit` are required. */
export const LeaderboardQuerySchema = z.object({
  page: queryInt(LEADERBOARD_PAGE_MIN, LEADERBOARD_PAGE_MAX).describe('Pages count from 1.'),
  limit: queryInt(LEADERBOARD_LIMIT_MIN, LEADERBOARD_LIMIT_MAX),
  sprintId: requestUuid()
    .optional()
    .describe('Only the xp earned within this sprint counts; all-time when absent.'),
});
/** Query of the leaderboard. */
export type LeaderboardQuery = z.infer<typeof LeaderboardQuerySchema>;

/** One member on the leaderboard. */
export const LeaderboardRecordSchema = z.object({
  userId: z.uuid(),
  name: z.string().nullable(),
  xp: z.number().describe('All-time xp, or the xp earned within the sprint.'),
  avatar: z.string().nullable(),
  connectedWallet: z.string().nullable(),
  address: z.string().nullable().describe('The connected wallet.'),
  twitterId: z.string().nullable(),
  twitterUsername: z.string().nullable(),
  discordHandle: z.string().nullable(),
  discordId: z.string().nullable(),
  email: z.string().nullable(),
  numberOfQuests: count().describe('Quests the member claimed (all-time, or within the sprint).'),
  ethAddress: z.string().nullable().describe('The verified ethereum address, if any.'),
});
/** One member on the leaderboard. */
export interface LeaderboardRecord extends z.infer<typeof LeaderboardRecordSchema> {}

/** The leaderboard answer: one page and the totals. */
export const LeaderboardSchema = z.object({
  data: z.array(LeaderboardRecordSchema),
  page: z.int().min(1),
  totalPages: count().describe('ceil(totalRecords / limit): the last page may be short.'),
  totalRecords: count(),
  status: z.literal('success'),
});
/** The leaderboard answer. */
export interface Leaderboard extends z.infer<typeof LeaderboardSchema> {}

/** A query boolean: `true` or `false` (a client may pass the boolean itself). */
const queryBoolean = () =>
  z.preprocess(
    (value) => (value === 'true' ? true : value === 'false' ? false : value),
    z.boolean(),
  );

/** Query of the sprint list. */
export const SprintListQuerySchema = z.object({
  onlyCurrent: queryBoolean().prefault(false).describe('Only the sprint running now.'),
});
/** Query of the sprint list. */
export type SprintListQuery = z.infer<typeof SprintListQuerySchema>;

/** A sprint: a period whose xp makes its own leaderboard. */
export const SprintSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  image: z.string().nullable(),
  color: z.string().nullable(),
  rewards: RichTextNodeSchema.nullable().describe('What the sprint rewards, as rich text.'),
  rewardZone: count().nullable().describe('How many of the top places are rewarded.'),
  includedQuestsIds: z
    .array(z.uuid())
    .describe('The quests whose xp counts; empty means every quest.'),
  startingAt: dateTime(),
  endingAt: dateTime(),
  createdAt: dateTime(),
});
/** A sprint. */
export interface Sprint extends z.infer<typeof SprintSchema> {}

/** The sprint list answer. */
export const SprintListSchema = z.object({ data: z.array(SprintSchema) });
/** The sprint list answer. */
export interface SprintList extends z.infer<typeof SprintListSchema> {}
