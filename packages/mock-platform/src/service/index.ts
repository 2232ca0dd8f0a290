// The public surface of the service side (claims, connect, endpoint checks, webhook deliveries),
// re-exported by the package entry.
export {
  buildAccounts,
  chainOfNetwork,
  taskMethods,
  walletFor,
} from './accounts.js';
export type { CallFilter, CallJournal, CallRecord } from './call-journal.js';
export {
  CLAIM_OUTCOMES,
  type ClaimEntry,
  type ClaimEntryFilter,
  type ClaimJournal,
  type ClaimOutcome,
  claimOutcome,
} from './claim-journal.js';
export {
  CLAIM_REASONS,
  CLAIM_STATUSES,
  type ClaimInput,
  type ClaimReason,
  type ClaimResult,
  type ClaimStatus,
  type Claims,
  type TaskReport,
} from './claims.js';
export {
  CONNECT_CALLBACK_PATH,
  type ConnectCallbackFailure,
  type ConnectCallbackResult,
  type ConnectService,
  type ConnectStartInput,
} from './connect.js';
export type {
  EndpointCheck,
  EndpointCheckFilter,
  EndpointCheckInput,
  EndpointChecks,
  EndpointCheckTrigger,
} from './endpoint-checks.js';
export { levelForXp } from './levels.js';
export { type JoinResult, type MemberJoinBody, MemberJoinBodySchema } from './members.js';
export {
  createService,
  DEFAULT_SERVICE_JOURNAL_SIZE,
  type MockService,
  type MockServiceOptions,
} from './service.js';
export {
  CALL_OUTCOMES,
  type CallOutcome,
  REDACTED,
  type ReceivedAnswer,
  type SentRequest,
  type VerificationCall,
} from './verification-call.js';
export {
  countDeliveries,
  DEFAULT_WEBHOOK_CONCURRENCY,
  DEFAULT_WEBHOOK_MAX_TRIES,
  DEFAULT_WEBHOOK_RETRY_BASE_MS,
  DEFAULT_WEBHOOK_RETRY_MAX_MS,
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  type Deliveries,
  type DeliveryAttempt,
  type Dispatched,
  retryDelayMs,
  type WebhookDeliveryOptions,
  type WebhookEvent,
} from './webhooks/deliveries.js';
export {
  type AdvanceReport,
  createScheduler,
  isManualClock,
  MAX_ADVANCE_STEPS,
  type Scheduler,
} from './webhooks/scheduler.js';
