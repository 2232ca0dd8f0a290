import type { PublicRoute } from '../http/route.js';
import { getCommunity, listModules } from './community.js';
import { deleteConnectAssociation } from './connect.js';
import { createQuest, listQuests } from './quests.js';
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

/** Every route of the public API, under `/public/communities/{subdomain}`. */
export const PUBLIC_ROUTES: readonly PublicRoute[] = [
  getCommunity,
  listModules,
  getUser,
  lookupUser,
  listInvites,
  getReviewCounts,
  deleteConnectAssociation,
  listQuests,
  createQuest,
  listWebhooks,
  createWebhook,
  updateWebhook,
  deleteWebhook,
  listWebhookEventTypes,
  listWebhookDeliveries,
];

/** The prefix of every public route. */
export const PUBLIC_PREFIX = '/public/communities/{subdomain}';
