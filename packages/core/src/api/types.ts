import type {
  Community,
  EventType,
  InviteListItem,
  ModuleList,
  QuestCreateRequestInput,
  QuestCreateResponse,
  QuestListItem,
  Review,
  ReviewActionBody,
  ReviewActionResponse,
  ReviewCounts,
  ReviewEventList,
  ReviewList,
  User,
  UserBySocial,
  WebhookCreateBody,
  WebhookCreateResponse,
  WebhookDeliveryRecordList,
  WebhookListResponse,
  WebhookUpdateBody,
} from '../schemas/index.js';

// The operations carry zod schemas; what a caller reads in an editor should be the resources'
// names (`User`, not the forty fields it expands to). These maps give each answer and each body
// its named type; `types.test-d.ts` proves each one equal to its schema's type, so they cannot
// drift apart.

/** The named type of each 200 body, by its name in the operation (and the OpenAPI document). */
export interface ApiResponseTypes {
  Community: Community;
  ModuleList: ModuleList;
  User: User;
  UserBySocial: UserBySocial;
  InviteList: InviteListItem[];
  ReviewCounts: ReviewCounts;
  QuestList: QuestListItem[];
  QuestCreateResponse: QuestCreateResponse;
  WebhookList: WebhookListResponse;
  WebhookCreateResponse: WebhookCreateResponse;
  WebhookEventTypeList: EventType[];
  WebhookDeliveryRecordList: WebhookDeliveryRecordList;
  ReviewList: ReviewList;
  Review: Review;
  ReviewActionResponse: ReviewActionResponse;
  ReviewEventList: ReviewEventList;
}

/**
 * The named type of each request body as a caller writes it, by operationId: defaulted fields
 * optional, and a webhook's `events` limited to the known event types, so a misspelt one fails
 * the compiler.
 */
export interface ApiRequestBodyTypes {
  createQuest: QuestCreateRequestInput;
  createWebhook: WebhookCreateBody;
  updateWebhook: WebhookUpdateBody;
  reviewClaims: ReviewActionBody;
}
