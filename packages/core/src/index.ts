/**
 * @module
 * `@questkit/core`: what the author of a community's endpoints uses, on Web standards only
 * (`Request`, `Response`, `URL`, `TextEncoder`), so it runs on Node 20+, Bun, Deno and edge
 * runtimes alike: the verifier and its answers, the API-key check, the claim it reads, the
 * identity-connect flow and signing, and the webhook receiver. The platform's contract as data
 * (the public API's schemas, limits and operations, the platform's checks of an answer) lives
 * under `@questkit/core/api`; what only adapter authors need, under `@questkit/core/adapter`.
 */

export type { FrontEnds } from './adapter/front-ends.js';
// The verification endpoint and its answers.
export { checkApiKey, findWithoutEarlyExit, timingSafeEqual } from './api-key.js';
// "Did you mean": the known name nearest a mistyped one.
export { closest } from './closest.js';
// Identity connect.
export * from './connect/index.js';
export { DEFAULT_MESSAGES, REASONS, type Reason, type VerifierMessages } from './reasons.js';
export { fail, ok, type VerifyResult } from './results.js';

// The claim the platform sends.
export {
  type Accounts,
  AccountsSchema,
  IDENTIFICATION_METHODS,
  type IdentificationMethod,
  type VerificationRequest,
  VerificationRequestSchema,
} from './schemas/verification.js';
// Webhook deliveries, and the events they carry.
export type {
  KnownWebhookEvent,
  WebhookCommunity,
  WebhookEvent,
  WebhookEventOf,
  WebhookQuest,
  WebhookSprint,
  WebhookTaskInput,
  WebhookUser,
} from './schemas/webhook-events.js';
export {
  type AccountsWith,
  type ClaimInput,
  createVerifier,
  type Decision,
  defineQuest,
  type ErrorInfo,
  type QuestRoute,
  type ResultEvent,
  type Verifier,
  type VerifierOptions,
  type VerifyContext,
  type VerifyHandler,
} from './verifier/index.js';
export {
  createMemoryDedupe,
  createRedisDedupe,
  createWebhookReceiver,
  type DedupeClaim,
  type DedupeLifetimes,
  type MemoryDedupeOptions,
  type RedisDedupeClient,
  type RedisDedupeOptions,
  type WebhookDedupe,
  type WebhookErrorInfo,
  type WebhookHandlers,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from './webhooks/index.js';
