// The public surface of the service side (claims, connect, endpoint checks, webhook deliveries),
// re-exported by the package entry.

// A call's record is core's, shared with the conformance runner.
export { REDACTED, type ReceivedAnswer, type SentRequest } from '@questkit/core/api';
export { levelForXp } from '../levels.js';
export {
  buildAccounts,
  chainOfNetwork,
  taskMethods,
  walletFor,
} from './accounts.js';
export {
  CLAIM_REASONS,
  CLAIM_STATUSES,
  type ClaimReason,
  type ClaimResult,
  type ClaimStatus,
  type TaskReport,
} from './claim-result.js';
export type { ClaimInput, Claims } from './claims.js';
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
  JudgedCall,
} from './endpoint-checks.js';
export { type JoinResult, type MemberJoinBody, MemberJoinBodySchema } from './members.js';
export type { PostJsonOptions } from './outbound/http-call.js';
export {
  createOutbound,
  type Outbound,
  type OutboundKind,
  type OutboundOptions,
  type OutboundRefusal,
  OutboundRefusedError,
} from './outbound/outbound.js';
export type { CallFilter, CallJournal, CallRecord } from './recorded-calls.js';
export {
  CLAIM_OUTCOMES,
  type ClaimEntry,
  type ClaimEntryFilter,
  type ClaimJournal,
  type ClaimOutcome,
  claimOutcome,
} from './recorded-claims.js';
export {
  createService,
  DEFAULT_SERVICE_JOURNAL_SIZE,
  type MockService,
  type MockServiceOptions,
} from './service.js';
export { CALL_OUTCOMES, type CallOutcome, type VerificationCall } from './verification-call.js';
export {
  countDeliveries,
  DEFAULT_WEBHOOK_CONCURRENCY,
  type Deliveries,
  type DeliveryAttempt,
  type Dispatched,
  NOT_SENT_RETRY_MS,
  type WebhookDeliveryOptions,
  type WebhookDeliverySettings,
  type WebhookEvent,
} from './webhooks/deliveries.js';
export {
  WEBHOOK_MAX_ANSWER_BYTES,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_SUCCESS_STATUS,
  WEBHOOK_TIMEOUT_MS,
} from './webhooks/rules.js';
export {
  type AdvanceReport,
  createScheduler,
  isManualClock,
  MAX_ADVANCE_STEPS,
  type Scheduler,
} from './webhooks/scheduler.js';
