import type {
  BanBody,
  Community,
  CommunitySecret,
  CommunitySecretInfo,
  EventType,
  InviteListItem,
  Leaderboard,
  MemberCheckBody,
  ModuleList,
  QuestCreateRequestInput,
  QuestCreateResponse,
  QuestListItem,
  ReferralCode,
  Review,
  ReviewActionBody,
  ReviewActionResponse,
  ReviewCounts,
  ReviewEventList,
  ReviewList,
  SprintList,
  User,
  UserBySocial,
  WebhookCreateBody,
  WebhookCreateResponse,
  WebhookDeliveryRecordList,
  WebhookListResponse,
  WebhookUpdateBody,
  XpBody,
  XpEntry,
} from '../schemas/index.js';
import type { QuestUpdateBodyInput } from './quest-update.js';

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
  CommunitySecret: CommunitySecret;
  CommunitySecretInfo: CommunitySecretInfo;
  XpEntry: XpEntry;
  ReferralCode: ReferralCode;
  Leaderboard: Leaderboard;
  SprintList: SprintList;
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
  checkMember: MemberCheckBody;
  addXp: XpBody;
  removeXp: XpBody;
  banUser: BanBody;
  updateQuest: QuestUpdateBodyInput;
}
