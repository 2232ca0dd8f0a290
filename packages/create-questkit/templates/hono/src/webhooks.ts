import type { WebhookDedupe, WebhookEventOf, WebhookUser } from '@questkit/core';

/** One of your members, as your own data knows them. */
export interface Member {
  name: string;
  email: string;
  /** The quests credited to this member, by the platform's quest id. */
  quests: Set<string>;
  xp: number;
}

// Replace with your own data (a database, a CRM): in memory here, so it starts empty every time.
export const MEMBERS: Member[] = [
  { name: 'Ada', email: 'ada@example.com', quests: new Set(), xp: 0 },
];

/**
 * Your member behind the platform's user: here by email. Match on `user.discord?.id`,
 * `user.twitter?.id`, `user.addresses` or `user.id` (the platform's) as your data links them.
 */
export function findMember(user: WebhookUser): Member | undefined {
  const email = user.email?.trim().toLowerCase();
  return email ? MEMBERS.find((member) => member.email === email) : undefined;
}

/**
 * QUEST_SUCCEEDED: a member completed a quest (at once, or when a review accepted the claim).
 * Credits the quest to your member once; a user you do not know is left alone. A retry of the
 * same event does not run this again (the receiver dedupes by event id); throwing makes the
 * platform retry later.
 */
export async function questSucceeded({ data }: WebhookEventOf<'QUEST_SUCCEEDED'>): Promise<void> {
  const member = findMember(data.user);
  if (!member || member.quests.has(data.quest.id)) return;
  member.quests.add(data.quest.id);
  member.xp += data.quest.xp ?? 0;
  console.log(`${member.name} completed "${data.quest.name}"`);
}

/**
 * The store that remembers which deliveries ran, so that a retry never runs a handler twice.
 * Undefined: this process's memory, right for one instance only (README, "One instance"). With
 * several, a store they share, such as Redis: `createRedisDedupe(redis)` from @questkit/core, with
 * `redis = await createClient({ url: process.env.REDIS_URL, disableOfflineQueue: true }).connect()`.
 */
export const DEDUPE: WebhookDedupe | undefined = undefined;

/** What the app says at start in production while DEDUPE is undefined. */
export const MEMORY_DEDUPE_WARNING =
  '[my-quest-app] webhook deliveries are deduplicated in this process\'s memory: right for one instance only. With several (replicas, serverless), set DEDUPE in src/webhooks.ts to createRedisDedupe(client) (README, "One instance").';

let warned = false;

/** Warns once, in production (NODE_ENV=production), while DEDUPE is undefined: never in tests or development. */
export function warnIfMemoryDedupe(nodeEnv: string | undefined): void {
  if (DEDUPE || nodeEnv !== 'production' || warned) return;
  warned = true;
  console.warn(MEMORY_DEDUPE_WARNING);
}
