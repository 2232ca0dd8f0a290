import type { IdentificationMethod } from '@questkit/core';
import type {
  ReceivedAnswer,
  SentRequest,
  Violation,
  WebhookDeliveryRecord,
} from '@questkit/core/api';
import type { CallOutcome, VerificationCall } from './verification-call.js';

// What a claim answers, apart from the engine that makes it: the claim journal keeps these
// answers, and the engine imports the journal, so both read the shape from here.

/**
 * How a claim ended: `success` (claimed), `pending` (waiting for a reviewer), `failed` (refused or
 * not verified), `error` (endpoint fault).
 */
export const CLAIM_STATUSES = ['success', 'pending', 'failed', 'error'] as const;
/** How a claim ended. */
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/** Why a claim ended as it did. */
export const CLAIM_REASONS = [
  'claimed',
  'in-review',
  'not-verified',
  'endpoint-fault',
  'account-not-linked',
  'quest-unavailable',
  'member-not-allowed',
  'claim-limit-reached',
  'already-claimed',
  'retry-later',
  'condition-not-met',
  'claim-in-progress',
  'review-pending',
] as const;
/** Why a claim ended as it did. */
export type ClaimReason = (typeof CLAIM_REASONS)[number];

/** One API task of a claim: the call made, or why none was. */
export interface TaskReport {
  taskId: string;
  endpoint: string | null;
  /** `skipped`: not called, because the claim was refused or an earlier task did not pass. */
  outcome: CallOutcome | 'skipped';
  /** The request sent, API key redacted; null when skipped. */
  request: SentRequest | null;
  response: ReceivedAnswer | null;
  error: string | null;
  /** The endpoint's message, when its answer passed the checks. */
  message: string | null;
  durationMs: number | null;
  violations: Violation[];
  /** Each platform check's verdict on the call; null when no call was made. */
  checks: VerificationCall['checks'] | null;
}

/** The answer of a claim. */
export interface ClaimResult {
  status: ClaimStatus;
  reason: ClaimReason;
  /** Generated for every claim, sent in every call of it, shown to the member with the message. */
  requestId: string;
  /** What the member sees. */
  message: string;
  subdomain: string;
  communityId: string;
  questId: string;
  userId: string;
  /** The methods the member must link first (reason `account-not-linked`), else empty. */
  missingAccounts: IdentificationMethod[];
  /** xp added to the member (success only). */
  xpAwarded: number;
  /** The review the claim opened (status `pending`), else null. */
  reviewId: string | null;
  tasks: TaskReport[];
  /** Webhook deliveries of the claim's events (QUEST_CLAIMED, then QUEST_SUCCEEDED or QUEST_FAILED), after their first try. */
  deliveries: WebhookDeliveryRecord[];
}
