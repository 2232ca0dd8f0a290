// The public surface of the service side (claims, connect, endpoint checks, webhook deliveries),
// re-exported by the package entry: the types `platform.service` names, and the constants the
// README documents.

export {
  CLAIM_REASONS,
  CLAIM_STATUSES,
  type ClaimReason,
  type ClaimResult,
  type ClaimStatus,
  type TaskReport,
} from './claim-result.js';
export type { ClaimInput, Claims } from './claims.js';
export type {
  ConnectCallbackFailure,
  ConnectCallbackResult,
  ConnectService,
  ConnectStartInput,
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
} from './recorded-claims.js';
export type { MockService, MockServiceOptions } from './service.js';
export { CALL_OUTCOMES, type CallOutcome, type VerificationCall } from './verification-call.js';
export {
  type Deliveries,
  type DeliveryAttempt,
  type Dispatched,
  NOT_SENT_RETRY_MS,
  type WebhookDeliveryOptions,
  type WebhookDeliverySettings,
  type WebhookEvent,
} from './webhooks/deliveries.js';
export { WEBHOOK_RETRY_DELAYS_MS } from './webhooks/rules.js';
export type { AdvanceReport, Scheduler } from './webhooks/scheduler.js';
