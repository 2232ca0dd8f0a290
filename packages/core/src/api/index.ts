/**
 * @module
 * `@questkit/core/api`: the platform's contract as data. One definition per operation of the
 * public API (operationId, method, path, schemas of path, query, body and answer, declared
 * errors, service headers, access), the schemas and limits of its resources, and the
 * verification call's answer with the platform's checks of it. The mock binds its handlers to
 * them, its OpenAPI document is generated from them, `@questkit/client` is derived from them and
 * the conformance runner judges with them, so a field or a status changes in one place.
 */
import { getCommunity, listModules } from './community.js';
import { getLeaderboard, listSprints } from './leaderboard.js';
import {
  addXp,
  banUser,
  checkMember,
  createSecret,
  getReferralCode,
  getSecret,
  removeXp,
} from './members.js';
import { updateQuest } from './quest-update.js';
import { createQuest, listQuests } from './quests.js';
import { getReview, listReviewEvents, listReviews, reviewClaims } from './reviews.js';
import {
  deleteConnectAssociation,
  getReviewCounts,
  getUser,
  listInvites,
  lookupUser,
} from './users.js';
import {
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhookEventTypes,
  listWebhooks,
  updateWebhook,
} from './webhooks.js';

// The verification call's contract: the answer, its time limit and the platform's checks of it.
// (The claim itself, which every endpoint reads, is on the main entry.)
export * from '../checks.js';
// A webhook delivery's body and the platform's rules for its answer.
export * from '../delivery-checks.js';
// How a caller records a call it made: what was sent and what came back, secrets redacted.
export * from '../recorded-exchange.js';
// The schemas and limits of the public API's resources, queries and bodies.
export * from '../schemas/community.js';
export * from '../schemas/leaderboard.js';
export * from '../schemas/limits.js';
export * from '../schemas/members.js';
export * from '../schemas/queries.js';
export * from '../schemas/quests.js';
export * from '../schemas/reviews.js';
export * from '../schemas/rich-text.js';
export * from '../schemas/users.js';
export { type VerificationResponse, VerificationResponseSchema } from '../schemas/verification.js';
export {
  PLATFORM_TIMEOUT_MS,
  VERIFICATION_STATUSES,
  type VerificationStatus,
} from '../schemas/verification-constants.js';
export * from '../schemas/webhook-events.js';
export * from '../schemas/webhooks.js';
export { CONTRACT_ERRORS } from './community.js';
export * from './errors.js';
export * from './headers.js';
export * from './operation.js';
export {
  QUEST_AI_PROMPT_MAX_LENGTH,
  QuestPathParamsSchema,
  type QuestUpdateBody,
  type QuestUpdateBodyInput,
  QuestUpdateBodySchema,
} from './quest-update.js';
export { QuestCreateBodySchema } from './quests.js';
export type { ApiRequestBodyTypes, ApiResponseTypes } from './types.js';
export { ConnectRemovalQuerySchema } from './users.js';

/**
 * Every operation of the public API by operationId, in the order the OpenAPI document lists
 * them.
 *
 * @example
 * const { method, path } = API_OPERATIONS.listInvites; // 'get', '/users/{userId}/invites'
 */
export const API_OPERATIONS = {
  getCommunity,
  listModules,
  getUser,
  lookupUser,
  listInvites,
  getReviewCounts,
  deleteConnectAssociation,
  checkMember,
  createSecret,
  getSecret,
  addXp,
  removeXp,
  banUser,
  getReferralCode,
  getLeaderboard,
  listSprints,
  listQuests,
  createQuest,
  updateQuest,
  listWebhooks,
  createWebhook,
  updateWebhook,
  deleteWebhook,
  listWebhookEventTypes,
  listWebhookDeliveries,
  listReviews,
  getReview,
  reviewClaims,
  listReviewEvents,
} as const;

/** The operations of the public API, by operationId. */
export type ApiOperations = typeof API_OPERATIONS;
/** An operationId of the public API. */
export type OperationId = keyof ApiOperations;
/** The operationIds, in the order of {@link API_OPERATIONS}. */
export const OPERATION_IDS = Object.keys(API_OPERATIONS) as OperationId[];
