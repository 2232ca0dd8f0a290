import { DEMO } from '../seed/demo-ids.js';

/** A request example of one operation: its path and query parameters and its body. */
export interface RequestExample {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

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

/** The example as a curl line against the mock at `serverUrl`. */
export function exampleCurl(
  method: string,
  path: string,
  example: RequestExample,
  serverUrl: string,
): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === 'subdomain' ? DEMO.subdomain : (example.params?.[name] ?? `<${name}>`),
  );
  const query = new URLSearchParams(example.query ?? {}).toString();
  const verb = method.toUpperCase() === 'GET' ? '' : `-X ${method.toUpperCase()} `;
  const body =
    example.body === undefined
      ? ''
      : ` -H 'content-type: application/json' -d '${JSON.stringify(example.body)}'`;
  return `curl ${verb}'${serverUrl}${filled}${query ? `?${query}` : ''}' -H 'x-api-key: ${DEMO.apiKeys.readWrite}'${body}`;
}
