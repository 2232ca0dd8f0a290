import type { OpenApiExamples, RequestExample } from '@questkit/core/openapi';
import { DEMO } from '../seed/demo-ids.js';

const WEBHOOK = DEMO.webhooks.joined;

/** One request example per operation of the public API, on the demo seed. */
export const REQUEST_EXAMPLES: Readonly<Record<string, RequestExample>> = {
  getCommunity: {},
  listModules: {},
  getUser: { params: { userId: DEMO.users.admin } },
  lookupUser: { query: { discordHandle: 'ada.lovelace' } },
  listInvites: {
    params: { userId: DEMO.users.admin },
    query: { page: '1', page_size: '10', status: 'active' },
  },
  getReviewCounts: { params: { id: DEMO.users.admin } },
  listQuests: { query: { limit: '20' } },
  createQuest: {
    body: {
      categoryId: DEMO.modules.onboarding,
      name: 'Subscribe to the newsletter',
      published: true,
      recurrence: 'daily',
      conditionOperator: 'AND',
      rewards: [{ type: 'xp', value: 100 }],
      tasks: [
        {
          type: 'api',
          settings: {
            title: 'Newsletter',
            endpoint: 'http://127.0.0.1:4010/verify',
            apiKey: 'demo-task-key',
            identifications: ['email'],
          },
        },
      ],
    },
  },
  updateQuest: {
    params: { questId: DEMO.quests.joinDiscord },
    body: { name: 'Join our Discord server', published: true },
  },
  checkMember: { body: { userId: DEMO.users.admin } },
  createSecret: {},
  getSecret: {},
  addXp: {
    params: { userId: DEMO.users.editor },
    body: { xp: 50, label: 'Event host', description: 'Hosted the community call' },
  },
  removeXp: { params: { userId: DEMO.users.admin }, body: { xp: 10, label: 'Correction' } },
  banUser: { params: { userId: DEMO.users.guest }, body: { reason: 'Spam in the Discord' } },
  getReferralCode: { params: { userId: DEMO.users.admin } },
  getLeaderboard: { query: { page: '1', limit: '20' } },
  listSprints: { query: { onlyCurrent: 'true' } },
  listWebhooks: { query: { limit: '20' } },
  createWebhook: {
    body: {
      name: 'Welcome bot',
      uri: 'http://127.0.0.1:4010/webhooks',
      active: true,
      events: ['JOINED_COMMUNITY'],
    },
  },
  updateWebhook: { params: { webhookId: WEBHOOK }, body: { active: false } },
  deleteWebhook: { params: { webhookId: WEBHOOK } },
  listWebhookEventTypes: {},
  listWebhookDeliveries: { params: { webhookId: WEBHOOK }, query: { limit: '20', page: '0' } },
  deleteConnectAssociation: { params: { userId: DEMO.users.admin } },
  listReviews: { query: { status: 'pending', limit: '20' } },
  getReview: { params: { reviewId: DEMO.reviews.starred } },
  reviewClaims: {
    body: {
      claimedQuestIds: [DEMO.reviews.pending],
      status: 'success',
      comment: 'Thanks for the visit',
      mark: 'star',
      bonusXP: 50,
    },
  },
  listReviewEvents: { params: { reviewId: DEMO.reviews.starred } },
};

/** The examples of the mock's OpenAPI document: the demo community, its read-write key. */
export const DEMO_EXAMPLES: OpenApiExamples = {
  subdomain: DEMO.subdomain,
  apiKey: DEMO.apiKeys.readWrite,
  requests: REQUEST_EXAMPLES,
};
