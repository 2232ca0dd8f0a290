import type {
  Community,
  CommunitySecret,
  CommunitySecretInfo,
  EventType,
  InviteListItem,
  Leaderboard,
  ModuleList,
  QuestCreateResponse,
  QuestListItem,
  ReferralCode,
  Review,
  ReviewActionResponse,
  ReviewCounts,
  ReviewEventList,
  ReviewList,
  SprintList,
  User,
  UserBySocial,
  WebhookCreateResponse,
  WebhookDeliveryRecordList,
  WebhookListResponse,
  XpEntry,
} from '@questkit/core/api';
import type { OperationInput } from './types.js';

// One declared method per operation, so that the API reference and an editor show each with its
// input and its answer's name; `types.test-d.ts` proves it equal to the derived OperationMethods.

/** The client's methods: one per operation of the public API, named by its operationId. */
export interface ClientMethods {
  /**
   * Community lookup: `GET /public/communities/{subdomain}`, resolves to `Community`.
   */
  getCommunity(input?: OperationInput<'getCommunity'>): Promise<Community>;
  /**
   * List modules: `GET /public/communities/{subdomain}/modules`, resolves to `ModuleList`.
   */
  listModules(input?: OperationInput<'listModules'>): Promise<ModuleList>;
  /**
   * User by id: `GET /public/communities/{subdomain}/users/{userId}`, resolves to `User`.
   */
  getUser(input: OperationInput<'getUser'>): Promise<User>;
  /**
   * User by social or wallet identifier: `GET /public/communities/{subdomain}/users`, resolves to `UserBySocial`.
   */
  lookupUser(input?: OperationInput<'lookupUser'>): Promise<UserBySocial>;
  /**
   * A member's invites: `GET /public/communities/{subdomain}/users/{userId}/invites`, resolves to `InviteListItem`[].
   */
  listInvites(input: OperationInput<'listInvites'>): Promise<InviteListItem[]>;
  /**
   * A member's review counts: `GET /public/communities/{subdomain}/reviews/users/{id}`, resolves to `ReviewCounts`.
   */
  getReviewCounts(input: OperationInput<'getReviewCounts'>): Promise<ReviewCounts>;
  /**
   * Remove a member's connect association: `DELETE /public/communities/{subdomain}/users/{userId}/connect`, resolves to `undefined` (200, no content).
   */
  deleteConnectAssociation(input: OperationInput<'deleteConnectAssociation'>): Promise<undefined>;
  /**
   * Member check: `POST /public/communities/{subdomain}/member`, resolves to `undefined` (200, no content).
   */
  checkMember(input: OperationInput<'checkMember'>): Promise<undefined>;
  /**
   * Create the community secret: `POST /public/communities/{subdomain}/secrets`, resolves to `CommunitySecret`.
   */
  createSecret(input?: OperationInput<'createSecret'>): Promise<CommunitySecret>;
  /**
   * Read the community secret: `GET /public/communities/{subdomain}/secrets`, resolves to `CommunitySecretInfo`.
   */
  getSecret(input?: OperationInput<'getSecret'>): Promise<CommunitySecretInfo>;
  /**
   * Give xp to a member: `POST /public/communities/{subdomain}/users/{userId}/xp`, resolves to `XpEntry`.
   */
  addXp(input: OperationInput<'addXp'>): Promise<XpEntry>;
  /**
   * Remove xp from a member: `DELETE /public/communities/{subdomain}/users/{userId}/xp`, resolves to `XpEntry`.
   */
  removeXp(input: OperationInput<'removeXp'>): Promise<XpEntry>;
  /**
   * Ban a member: `POST /public/communities/{subdomain}/users/{userId}/ban`, resolves to `undefined` (200, no content).
   */
  banUser(input: OperationInput<'banUser'>): Promise<undefined>;
  /**
   * A member's referral code: `GET /public/communities/{subdomain}/users/{userId}/referral-code`, resolves to `ReferralCode`.
   */
  getReferralCode(input: OperationInput<'getReferralCode'>): Promise<ReferralCode>;
  /**
   * Leaderboard: `GET /public/communities/{subdomain}/leaderboard`, resolves to `Leaderboard`.
   */
  getLeaderboard(input: OperationInput<'getLeaderboard'>): Promise<Leaderboard>;
  /**
   * Sprints: `GET /public/communities/{subdomain}/leaderboard/sprint`, resolves to `SprintList`.
   */
  listSprints(input?: OperationInput<'listSprints'>): Promise<SprintList>;
  /**
   * List quests: `GET /public/communities/{subdomain}/quests`, resolves to `QuestListItem`[].
   */
  listQuests(input?: OperationInput<'listQuests'>): Promise<QuestListItem[]>;
  /**
   * Create a quest: `POST /public/communities/{subdomain}/quests`, resolves to `QuestCreateResponse`.
   */
  createQuest(input: OperationInput<'createQuest'>): Promise<QuestCreateResponse>;
  /**
   * Update a quest: `PATCH /public/communities/{subdomain}/quests/{questId}`, resolves to `QuestCreateResponse`.
   */
  updateQuest(input: OperationInput<'updateQuest'>): Promise<QuestCreateResponse>;
  /**
   * List webhooks: `GET /public/communities/{subdomain}/webhooks`, resolves to `WebhookListResponse`.
   */
  listWebhooks(input?: OperationInput<'listWebhooks'>): Promise<WebhookListResponse>;
  /**
   * Create a webhook: `POST /public/communities/{subdomain}/webhooks`, resolves to `WebhookCreateResponse`.
   */
  createWebhook(input: OperationInput<'createWebhook'>): Promise<WebhookCreateResponse>;
  /**
   * Update a webhook: `PATCH /public/communities/{subdomain}/webhooks/{webhookId}`, resolves to `undefined` (200, no content).
   */
  updateWebhook(input: OperationInput<'updateWebhook'>): Promise<undefined>;
  /**
   * Delete a webhook: `DELETE /public/communities/{subdomain}/webhooks/{webhookId}`, resolves to `undefined` (200, no content).
   */
  deleteWebhook(input: OperationInput<'deleteWebhook'>): Promise<undefined>;
  /**
   * List webhook event types: `GET /public/communities/{subdomain}/webhooks-event-types`, resolves to `EventType`[].
   */
  listWebhookEventTypes(input?: OperationInput<'listWebhookEventTypes'>): Promise<EventType[]>;
  /**
   * A webhook's delivery records: `GET /public/communities/{subdomain}/webhooks/{webhookId}/events`, resolves to `WebhookDeliveryRecordList`.
   */
  listWebhookDeliveries(
    input: OperationInput<'listWebhookDeliveries'>,
  ): Promise<WebhookDeliveryRecordList>;
  /**
   * List reviews of claimed quests: `GET /public/communities/{subdomain}/reviews`, resolves to `ReviewList`.
   */
  listReviews(input?: OperationInput<'listReviews'>): Promise<ReviewList>;
  /**
   * A review of a claimed quest: `GET /public/communities/{subdomain}/reviews/{reviewId}`, resolves to `Review`.
   */
  getReview(input: OperationInput<'getReview'>): Promise<Review>;
  /**
   * Review claimed quests: `POST /public/communities/{subdomain}/reviews`, resolves to `ReviewActionResponse`.
   */
  reviewClaims(input: OperationInput<'reviewClaims'>): Promise<ReviewActionResponse>;
  /**
   * A review's events: `GET /public/communities/{subdomain}/reviews/{reviewId}/events`, resolves to `ReviewEventList`.
   */
  listReviewEvents(input: OperationInput<'listReviewEvents'>): Promise<ReviewEventList>;
}
