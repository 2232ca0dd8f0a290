import {
  deliveryBody,
  type KnownEventType,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_USER_AGENT,
  type WebhookCommunity,
  type WebhookEvent,
  type WebhookEventOf,
  type WebhookQuest,
  type WebhookTaskInput,
  type WebhookUser,
} from '@questkit/core/api';
import type { OutgoingRequest } from './send.js';

// The deliveries `questkit check-webhook` sends, made as the platform makes them: a POST of the
// event plus the webhook's `secret` in a JSON body (core's `deliveryBody`), `User-Agent:
// Svc-Webhook`, no signature header. The event shapes are core's schemas: a sample per known
// type, typed by them, so a type added to core fails the compiler here until it has a sample.

/** The ids a sample event refers to: one synthetic community, member and quest per run. */
export interface SampleIds {
  communityId: string;
  subdomain: string;
  userId: string;
  questId: string;
}

type SampleData = {
  [T in KnownEventType]: (ids: SampleIds, at: number) => WebhookEventOf<T>['data'];
};

const community = (ids: SampleIds): WebhookCommunity => ({
  id: ids.communityId,
  name: 'questkit check',
  subdomain: ids.subdomain,
  blockchain: 'ethereum',
  discord: 'https://discord.gg/questkit-check',
  twitter: 'https://x.com/questkit_check',
  website: 'https://questkit-check.example',
});

/** A member with every account linked, as a receiver that looks members up meets them. */
const user = (ids: SampleIds): WebhookUser => ({
  id: ids.userId,
  name: 'Ada Lovelace',
  twitter: { id: '1456789012345678901', username: 'ada_check' },
  discord: { id: '912345678901234567', handle: 'ada.check' },
  email: 'ada@questkit-check.example',
  addresses: {
    ethereum: '0x52908400098527886E0F7030069857D2E4169EE7',
    arweave: 'vLRHFqCw1uHu75xqB4fCDW-QxpkpJxBtFD9g4QYUbfw',
  },
});

// One task of each input kind, so a receiver that reads `taskInputs` meets each shape.
const TASKS = [
  { id: '0c6f1c52-77b2-4c2f-9b1e-3f0d6d3e6a01', type: 'text', input: { value: 'ada.eth' } },
  { id: '0c6f1c52-77b2-4c2f-9b1e-3f0d6d3e6a02', type: 'number', input: { value: 42 } },
  {
    id: '0c6f1c52-77b2-4c2f-9b1e-3f0d6d3e6a03',
    type: 'quiz',
    input: { values: ['Ethereum', 'Arweave'] },
  },
  {
    id: '0c6f1c52-77b2-4c2f-9b1e-3f0d6d3e6a04',
    type: 'image',
    input: { fileUrls: ['https://questkit-check.example/uploads/proof.png'] },
  },
  {
    id: '0c6f1c52-77b2-4c2f-9b1e-3f0d6d3e6a05',
    type: 'tweet',
    input: { tweetId: '1790000000000000000' },
  },
  { id: '0c6f1c52-77b2-4c2f-9b1e-3f0d6d3e6a06', type: 'api', input: {} },
] as const;

const quest = (ids: SampleIds): WebhookQuest => ({
  id: ids.questId,
  name: 'Tell us your ENS name',
  categoryId: '7d1f0a3e-2b4c-4d5e-8f60-718293a4b5c6',
  categoryName: 'Onboarding',
  xp: 100,
  published: true,
  autoValidate: false,
  tasks: TASKS.map(({ id, type }) => ({ id, type })),
  lastReviewerId: 'b3e1f2a4-5c6d-4e7f-8091-a2b3c4d5e6f7',
});

const taskInputs = (): WebhookTaskInput[] =>
  TASKS.map(({ id, type, input }) => ({ taskId: id, taskType: type, input: { ...input } }));

const claim = (ids: SampleIds) => ({
  community: community(ids),
  user: user(ids),
  quest: quest(ids),
  taskInputs: taskInputs(),
});

const sprint = (at: number) => ({
  id: '4a5b6c7d-8e9f-4a0b-9c1d-2e3f4a5b6c7d',
  name: 'Launch week',
  description: 'Seven days, one leaderboard.',
  includedQuestsIds: [],
  startingAt: new Date(at).toISOString(),
  endingAt: new Date(at + 7 * 86_400_000).toISOString(),
});

/** Realistic `data` of each known event type, as the platform fills it. */
const SAMPLE_DATA: SampleData = {
  JOINED_COMMUNITY: (ids) => ({ community: community(ids), user: user(ids) }),
  LEFT_COMMUNITY: (ids) => ({ community: community(ids), user: user(ids) }),
  QUEST_SUCCEEDED: (ids) => claim(ids),
  QUEST_CLAIMED: (ids) => claim(ids),
  QUEST_FAILED: (ids) => claim(ids),
  QUEST_CLAIM_STATUS_UPDATED: (ids) => ({ ...claim(ids), status: 'fail' }),
  SPRINT_STARTED: (ids, at) => ({ community: community(ids), sprint: sprint(at) }),
  SPRINT_ENDED: (ids, at) => ({
    community: community(ids),
    sprint: sprint(at - 7 * 86_400_000),
  }),
  USER_BANNED: (ids) => ({ community: community(ids), user: user(ids), reason: 'Spam' }),
};

/** One event of `type` with realistic `data` and a fresh id. */
export function sampleEvent(type: KnownEventType, ids: SampleIds): WebhookEvent {
  const time = Date.now();
  return { id: crypto.randomUUID(), type, time, data: SAMPLE_DATA[type](ids, time) };
}

/** One sample event of every known type, in core's order. */
export function sampleEvents(ids: SampleIds): WebhookEvent[] {
  return WEBHOOK_EVENT_TYPES.map((type) => sampleEvent(type, ids));
}

/** The POST that delivers `event` to `url` with `secret`, as the platform sends it. */
export function deliveryRequest(url: string, event: WebhookEvent, secret: string): OutgoingRequest {
  return {
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', 'user-agent': WEBHOOK_USER_AGENT },
    body: deliveryBody(event, secret),
  };
}
