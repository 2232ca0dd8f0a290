import * as z from 'zod';
import { dateTime, queryCursor, queryInt, requestUuid } from './fields.js';

// Reviews of claimed quests: the platform's documentation and real client code (not the contract)
// give the shapes; the limits below are questkit's, the documentation gives none. Kept here, beside
// the schemas they bound, so the review contract reads in one file.

/** Lowest `limit` of the review list. */
export const REVIEW_LIST_LIMIT_MIN = 1;
/** Highest `limit` of the review list (as the other lists of the API). */
export const REVIEW_LIST_LIMIT_MAX = 100;
/** `limit` of the review list when the caller gives none. */
export const REVIEW_LIST_LIMIT_DEFAULT = 20;
/** Longest `cursor` of the review list, in characters. */
export const REVIEW_LIST_CURSOR_MAX_LENGTH = 200;
/** Most reviews one review action decides. */
export const REVIEW_ACTION_IDS_MAX = 100;
/** Longest review `comment`, in characters. */
export const REVIEW_COMMENT_MAX_LENGTH = 2000;
/** Lowest `bonusXP` of a review. */
export const REVIEW_BONUS_XP_MIN = 1;
/** Highest `bonusXP` of a review. */
export const REVIEW_BONUS_XP_MAX = 100_000;

/** The states of a review: waiting for a reviewer, accepted, refused. */
export const REVIEW_STATUSES = ['pending', 'success', 'fail'] as const;
/** A review's state. */
export const ReviewStatusSchema = z.enum(REVIEW_STATUSES);
/** A review's state. */
export type ReviewStatus = z.infer<typeof ReviewStatusSchema>;

/** A reviewer's mark: a star (with success) or a flag (with fail). */
export const REVIEW_MARKS = ['star', 'flag'] as const;
/** A reviewer's mark. */
export const ReviewMarkSchema = z.enum(REVIEW_MARKS);
/** A reviewer's mark. */
export type ReviewMark = z.infer<typeof ReviewMarkSchema>;

/** The states of a task of a claimed quest. */
export const REVIEW_TASK_STATUSES = ['error', 'success', 'in-review'] as const;

/** The types of a review event: a success, a fail (`error`), a cancellation. */
export const REVIEW_EVENT_TYPES = ['success', 'error', 'cancel'] as const;

/** A member as a review shows them (the reviewed member, or the reviewer). */
export const ReviewPersonSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  avatar: z.string().nullable().describe('URL of the avatar.'),
});
/** A member as a review shows them (the reviewed member, or the reviewer). */
export interface ReviewPerson extends z.infer<typeof ReviewPersonSchema> {}

/** A task of a claimed quest, with what the member submitted for it. */
export const ReviewTaskSchema = z.object({
  id: z.string(),
  type: z.string().describe('The task type (api, partnership, text, url, ...).'),
  status: z.enum(REVIEW_TASK_STATUSES),
  createdAt: dateTime(),
  value: z.string().optional().describe('A single answer (text, url).'),
  values: z.array(z.string()).optional().describe('Several answers.'),
  fileUrls: z.array(z.string()).optional().describe('Uploaded files.'),
  tweetId: z.string().optional().describe('The tweet of a tweet task.'),
});
/** A task of a claimed quest, with what the member submitted for it. */
export interface ReviewTask extends z.infer<typeof ReviewTaskSchema> {}

/** A claimed quest under review (its id is the claimed quest's id). */
export const ReviewSchema = z.object({
  id: z.string(),
  user: ReviewPersonSchema,
  quest: z.object({ id: z.string(), name: z.string() }),
  status: ReviewStatusSchema,
  mark: ReviewMarkSchema.nullable(),
  tasks: z.array(ReviewTaskSchema),
  createdAt: dateTime(),
  updatedAt: dateTime(),
});
/** A claimed quest under review (its id is the claimed quest's id). */
export interface Review extends z.infer<typeof ReviewSchema> {}

/** The body of the review list response; `nextCursor` is null on the last page. */
export const ReviewListSchema = z.object({
  items: z.array(ReviewSchema),
  nextCursor: z
    .string()
    .nullable()
    .describe('Opaque cursor of the next page while more reviews exist, null at the end.'),
});
/** The body of the review list response; `nextCursor` is null on the last page. */
export interface ReviewList {
  items: Review[];
  nextCursor: string | null;
}

/** Query of the review list. `cursor` is the `nextCursor` of the previous page. */
export const ReviewListQuerySchema = z.object({
  questId: requestUuid().optional().describe('Keep the reviews of this quest.'),
  userId: requestUuid().optional().describe('Keep the reviews of this member.'),
  status: ReviewStatusSchema.optional().describe('Keep the reviews in this state.'),
  limit: queryInt(REVIEW_LIST_LIMIT_MIN, REVIEW_LIST_LIMIT_MAX).optional(),
  cursor: queryCursor(z.string().max(REVIEW_LIST_CURSOR_MAX_LENGTH))
    .optional()
    .describe(
      'The nextCursor of the previous page. Empty or absent means the first page (so does the text null).',
    ),
});
/** Query of the review list. */
export type ReviewListQuery = z.infer<typeof ReviewListQuerySchema>;

const subdomain = () => z.string().min(1).describe('The subdomain that addresses the community.');

/** Path parameters of `/reviews/{reviewId}` and `/reviews/{reviewId}/events`. */
export const ReviewIdParamsSchema = z.object({ subdomain: subdomain(), reviewId: requestUuid() });
/** Path parameters of `/reviews/{reviewId}` and `/reviews/{reviewId}/events`. */
export type ReviewIdParams = z.infer<typeof ReviewIdParamsSchema>;

const issue = (path: string, message: string) => ({
  code: 'custom' as const,
  path: [path],
  message,
});

/**
 * The body of the review action. The documented rules are checked here, so every server and
 * client reads them in one place: `comment` only with success or fail; a `star` only with
 * success, a `flag` only with fail; `bonusXP` only with success and a star.
 */
export const ReviewActionBodySchema = z
  .object({
    claimedQuestIds: z
      .array(requestUuid())
      .min(1)
      .max(REVIEW_ACTION_IDS_MAX)
      .describe('The reviews (claimed quests) to decide, each once.'),
    status: ReviewStatusSchema,
    comment: z
      .string()
      .min(1)
      .max(REVIEW_COMMENT_MAX_LENGTH)
      .optional()
      .describe('Shown to the member; only with status success or fail.'),
    mark: ReviewMarkSchema.optional().describe('star only with success; flag only with fail.'),
    bonusXP: z
      .number()
      .int()
      .min(REVIEW_BONUS_XP_MIN)
      .max(REVIEW_BONUS_XP_MAX)
      .optional()
      .describe('xp added to the quest’s rewards; only with status success and mark star.'),
  })
  .superRefine((body, issues) => {
    if (body.comment !== undefined && body.status === 'pending') {
      issues.addIssue(issue('comment', 'A comment is only allowed with status success or fail'));
    }
    if (body.mark === 'star' && body.status !== 'success') {
      issues.addIssue(issue('mark', 'A star is only allowed with status success'));
    }
    if (body.mark === 'flag' && body.status !== 'fail') {
      issues.addIssue(issue('mark', 'A flag is only allowed with status fail'));
    }
    if (body.bonusXP !== undefined && (body.status !== 'success' || body.mark !== 'star')) {
      issues.addIssue(
        issue('bonusXP', 'bonusXP is only allowed with status success and mark star'),
      );
    }
    if (new Set(body.claimedQuestIds).size !== body.claimedQuestIds.length) {
      issues.addIssue(issue('claimedQuestIds', 'Each claimed quest id may be given once'));
    }
  });
/** The body of the review action, as a caller writes it. */
export interface ReviewActionBody extends z.input<typeof ReviewActionBodySchema> {}

/** The answer of the review action. */
export const ReviewActionResponseSchema = z.object({
  reviewedClaimQuestIds: z.array(z.string()),
  status: ReviewStatusSchema,
  comment: z.string().nullable(),
});
/** The answer of the review action. */
export interface ReviewActionResponse extends z.infer<typeof ReviewActionResponseSchema> {}

/** One event in a review's history. */
export const ReviewEventSchema = z.object({
  id: z.string(),
  createdAt: dateTime(),
  type: z.enum(REVIEW_EVENT_TYPES).describe('success; error (set to fail); cancel.'),
  data: z.object({
    message: z.string(),
    bonusXP: z.number().int().optional(),
  }),
  reviewer: ReviewPersonSchema,
});
/** One event in a review's history. */
export interface ReviewEvent extends z.infer<typeof ReviewEventSchema> {}

/** The body of the review events response, oldest first. */
export const ReviewEventListSchema = z.object({ items: z.array(ReviewEventSchema) });
/** The body of the review events response, oldest first. */
export interface ReviewEventList {
  items: ReviewEvent[];
}
