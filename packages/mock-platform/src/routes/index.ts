import { API_PREFIX, OPERATION_IDS, type OperationId } from '@questkit/core/api';
import type { PublicRoute } from '../http/route.js';
import { getCommunity, listModules } from './community.js';
import { deleteConnectAssociation } from './connect.js';
import { getLeaderboard, listSprints } from './leaderboard.js';
import { checkMember, createSecret, getReferralCode, getSecret } from './members.js';
import { updateQuest } from './quest-update.js';
import { createQuest, listQuests } from './quests.js';
import { getReview, listReviewEvents, listReviews, reviewClaims } from './review-actions.js';
import { getReviewCounts } from './reviews.js';
import { getUser, listInvites, lookupUser } from './users.js';
import {
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhookEventTypes,
  listWebhooks,
  updateWebhook,
} from './webhooks.js';
import { addXp, banUser, removeXp } from './xp.js';

/** The mock's route of every operation of core's contract: the compiler checks none is missing. */
const ROUTES_BY_OPERATION = {
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
} satisfies Record<OperationId, PublicRoute>;

/** Every route of the public API, under `/public/communities/{subdomain}`, in core's order. */
export const PUBLIC_ROUTES: readonly PublicRoute[] = OPERATION_IDS.map(
  (operationId) => ROUTES_BY_OPERATION[operationId],
);

/** The prefix of every public route. */
export const PUBLIC_PREFIX = API_PREFIX;
