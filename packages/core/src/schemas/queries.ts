import * as z from 'zod';
import { queryCursor, queryInt, requestUuid } from './fields.js';
import {
  INVITE_PAGE_MAX,
  INVITE_PAGE_MIN,
  INVITE_PAGE_SIZE_DEFAULT,
  INVITE_PAGE_SIZE_MAX,
  INVITE_PAGE_SIZE_MIN,
  QUEST_LIST_LIMIT_MAX,
  QUEST_LIST_LIMIT_MIN,
  WEBHOOK_EVENTS_LIMIT_DEFAULT,
  WEBHOOK_EVENTS_LIMIT_MAX,
  WEBHOOK_EVENTS_LIMIT_MIN,
  WEBHOOK_EVENTS_PAGE_DEFAULT,
  WEBHOOK_EVENTS_PAGE_MAX,
  WEBHOOK_EVENTS_PAGE_MIN,
  WEBHOOK_LIST_CURSOR_MAX_LENGTH,
  WEBHOOK_LIST_LIMIT_MAX,
  WEBHOOK_LIST_LIMIT_MIN,
} from './limits.js';
import { InviteStatusSchema } from './users.js';

// Path parameters. Each schema carries every parameter of its path, so one parse of the router's
// params object covers the whole path.

const subdomain = () => z.string().min(1).describe('The subdomain that addresses the community.');

/** Path parameters of every community endpoint. */
export const SubdomainParamsSchema = z.object({ subdomain: subdomain() });
/** Path parameters of every community endpoint. */
export type SubdomainParams = z.infer<typeof SubdomainParamsSchema>;

/** Path parameters of `/users/{userId}` and `/users/{userId}/invites`. */
export const UserPathParamsSchema = z.object({ subdomain: subdomain(), userId: requestUuid() });
/** Path parameters of `/users/{userId}` and `/users/{userId}/invites`. */
export type UserPathParams = z.infer<typeof UserPathParamsSchema>;

/** Path parameters of `/reviews/users/{id}`. */
export const ReviewPathParamsSchema = z.object({ subdomain: subdomain(), id: requestUuid() });
/** Path parameters of `/reviews/users/{id}`. */
export type ReviewPathParams = z.infer<typeof ReviewPathParamsSchema>;

/** Path parameters of `/webhooks/{webhookId}` and `/webhooks/{webhookId}/events`. */
export const WebhookPathParamsSchema = z.object({
  subdomain: subdomain(),
  webhookId: requestUuid(),
});
/** Path parameters of `/webhooks/{webhookId}` and `/webhooks/{webhookId}/events`. */
export type WebhookPathParams = z.infer<typeof WebhookPathParamsSchema>;

/** Optional header of webhook update and delete (header names arrive lower case). */
export const WebhookMutationHeadersSchema = z.object({
  'x-svc-confirmation-token': requestUuid().optional(),
});
/** Optional header of webhook update and delete (header names arrive lower case). */
export type WebhookMutationHeaders = z.infer<typeof WebhookMutationHeadersSchema>;

/** The identifiers the lookup by social identifier matches a user on. */
export const USER_LOOKUP_IDENTIFIERS = [
  'discordId',
  'discordHandle',
  'twitterUsername',
  'twitterId',
  'ethAddress',
  'email',
  'blockchainAddress',
] as const;
/** A social identifier a member can be looked up by. */
export type UserLookupIdentifier = (typeof USER_LOOKUP_IDENTIFIERS)[number];

/**
 * Query of the lookup by social identifier. The contract makes every parameter optional; we
 * require at least one non-empty identifier (`blockchainNetwork` alone identifies no one).
 */
export const UserLookupQuerySchema = z
  .object({
    discordId: z.string().optional(),
    discordHandle: z.string().optional(),
    twitterUsername: z.string().optional(),
    twitterId: z.string().optional(),
    ethAddress: z.string().optional(),
    email: z.string().optional(),
    blockchainAddress: z.string().optional(),
    blockchainNetwork: z
      .string()
      .optional()
      .describe('Network of blockchainAddress; the contract does not list the values.'),
  })
  .refine((query) => USER_LOOKUP_IDENTIFIERS.some((key) => Boolean(query[key])), {
    message: `Give at least one of ${USER_LOOKUP_IDENTIFIERS.join(', ')}`,
  })
  .describe('At least one identifier is required; when several are given they must all match.');
/**
 * Query of the lookup by social identifier. The contract makes every parameter optional; we
 * require at least one non-empty identifier (`blockchainNetwork` alone identifies no one).
 */
export type UserLookupQuery = z.infer<typeof UserLookupQuerySchema>;

/** Query of the invite list. `page` is required. */
export const InviteListQuerySchema = z.object({
  status: InviteStatusSchema.optional(),
  invitesQuestId: requestUuid().optional(),
  page: queryInt(INVITE_PAGE_MIN, INVITE_PAGE_MAX),
  page_size: queryInt(INVITE_PAGE_SIZE_MIN, INVITE_PAGE_SIZE_MAX).prefault(
    INVITE_PAGE_SIZE_DEFAULT,
  ),
});
/** Query of the invite list. `page` is required. */
export type InviteListQuery = z.infer<typeof InviteListQuerySchema>;

/** Query of the quest list. `cursor` is the id of the last quest of the previous page. */
export const QuestListQuerySchema = z.object({
  moduleId: requestUuid().optional(),
  limit: queryInt(QUEST_LIST_LIMIT_MIN, QUEST_LIST_LIMIT_MAX).optional(),
  cursor: queryCursor(requestUuid())
    .optional()
    .describe(
      'Id of the last quest of the previous page. Empty or absent means the first page (so does the text null).',
    ),
});
/** Query of the quest list. `cursor` is the id of the last quest of the previous page. */
export type QuestListQuery = z.infer<typeof QuestListQuerySchema>;

/** Query of the webhook list. `cursor` is the `nextCursor` of the previous page. */
export const WebhookListQuerySchema = z.object({
  cursor: queryCursor(z.string().max(WEBHOOK_LIST_CURSOR_MAX_LENGTH))
    .optional()
    .describe(
      'The nextCursor of the previous page. Empty or absent means the first page (so does the text null).',
    ),
  limit: queryInt(WEBHOOK_LIST_LIMIT_MIN, WEBHOOK_LIST_LIMIT_MAX).optional(),
});
/** Query of the webhook list. `cursor` is the `nextCursor` of the previous page. */
export type WebhookListQuery = z.infer<typeof WebhookListQuerySchema>;

/** Query of the webhook delivery-record list. Pages count from 0. */
export const WebhookEventsQuerySchema = z.object({
  limit: queryInt(WEBHOOK_EVENTS_LIMIT_MIN, WEBHOOK_EVENTS_LIMIT_MAX).prefault(
    WEBHOOK_EVENTS_LIMIT_DEFAULT,
  ),
  page: queryInt(WEBHOOK_EVENTS_PAGE_MIN, WEBHOOK_EVENTS_PAGE_MAX)
    .nullable()
    .prefault(WEBHOOK_EVENTS_PAGE_DEFAULT),
  statusFilter: z.string().optional().describe('Delivery status to keep. Value seen: success.'),
});
/** Query of the webhook delivery-record list. Pages count from 0. */
export type WebhookEventsQuery = z.infer<typeof WebhookEventsQuerySchema>;
