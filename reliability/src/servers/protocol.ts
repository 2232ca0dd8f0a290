/**
 * Messages between a test and the server it runs in a child process. The child is spawned with an
 * IPC channel, so crashes, memory and unhandled rejections are observed from outside the server.
 */

/** The frameworks a verification-endpoint suite runs against. */
export const ADAPTERS = ['express', 'express4', 'fastify', 'hono'] as const;
export type AdapterName = (typeof ADAPTERS)[number];

/** What the child is started with (JSON in its first argument). */
export interface ServerConfig {
  adapter: AdapterName;
  apiKey: string;
  connectSecret: string;
  /** The verifier's deadline on every route. */
  timeoutMs: number;
  /** The verifier's body limit on every route. */
  maxBodyBytes: number;
  /** How long the `late` handlers wait past the deadline before they settle. */
  lateByMs: number;
}

/** What the mock platform child is started with (JSON in its first argument). */
export interface MockServerConfig {
  /** Generated demo members besides the named ones. */
  seedUsers: number;
  rateLimit: false | { perSecond: number; burst?: number };
  /** A manual clock: webhook retries then run only when the clock is advanced. */
  manualClock: boolean;
  clockStart?: string;
  endpointChecks: boolean;
  verificationTimeoutMs?: number;
  serviceJournalSize?: number;
  /** How stale a quest's claimCounter may be; 0 makes it live. */
  claimCounterRefreshMs?: number;
  webhooks?: {
    retryDelaysMs?: number[];
    timeoutMs?: number;
    concurrency?: number;
  };
  /** The control token of a mock exposed beyond loopback. */
  controlToken?: string;
  /** Bounds of the mock's outgoing calls (a load test raises the per-target rate). */
  outbound?: { concurrency?: number; perTargetPerSecond?: number; burst?: number };
}

/** The public origin the connect routes are configured with, so signatures ignore the port. */
export const CONNECT_ORIGIN = 'https://community.example';
/** The one origin `/connect-allow` accepts callbacks to. */
export const ALLOWED_CALLBACK_ORIGIN = 'https://platform.example';
/** The member `getIdentifier` returns on every connect route. */
export const CONNECT_MEMBER = 'member-42';

/**
 * The routes every adapter server mounts:
 * - `verify`: handlers that answer from the claim, with questkit's default `onError` (console).
 * - `faults`: one misbehaving handler per questId (see {@link FAULT_QUESTS}); `onError` is
 *   forwarded to the test over IPC.
 * - `verifyParsed`: Express only, behind an app-level `express.json()` and `verificationErrors`.
 * - `connect` / `connectAllow`: the connect endpoint (GET and POST), without and with a callback
 *   allow-list.
 * - `webhooks`: the webhook receiver, its secret the connect secret, its handlers doing nothing.
 */
export const ROUTES = {
  verify: '/verify',
  faults: '/faults',
  verifyParsed: '/verify-parsed',
  connect: '/connect',
  connectAllow: '/connect-allow',
  webhooks: '/webhooks',
} as const;

/** The questIds of the `faults` route and what their handler does. */
export const FAULT_QUESTS = [
  'throws',
  'throws-non-error',
  'rejects',
  'returns-undefined',
  'returns-null',
  'returns-number',
  'returns-plain-object',
  'returns-forged-result',
  'never-settles',
  'settles-late',
  'rejects-late',
  'answers',
] as const;
export type FaultQuest = (typeof FAULT_QUESTS)[number];

export type ParentMessage = { type: 'stats'; id: number; gc: boolean } | { type: 'close' };

/** A snapshot of the child's health. */
export interface ServerStats {
  heapUsed: number;
  rss: number;
  /** Peak resident set size of the child's whole life, in bytes. */
  maxRss: number;
  /** Own properties found on built-in prototypes that were not there at start-up. */
  pollution: string[];
  unhandledRejections: number;
  /** Answers per `route reason`, as `onResult` reported them. */
  reasons: Record<string, number>;
  /** Connect links reported through `onLinked`. */
  linked: number;
}

export type ChildMessage =
  | { type: 'listening'; port: number }
  | ({ type: 'stats'; id: number } & ServerStats)
  | { type: 'on-error'; route: string; reason: string; requestId?: string; text: string }
  | { type: 'unhandled-rejection'; text: string }
  | { type: 'linked'; route: string; svcUserId: string; identifier: string; callback: string };
