import type { VerificationRequest } from '@questkit/core';
import {
  type CheckVerdict,
  checkVerificationAnswer,
  type ObservedAnswer,
  type PlatformCheck,
  type ReceivedAnswer,
  recordReceivedAnswer,
  recordSentRequest,
  type SentRequest,
  type Violation,
} from '@questkit/core/api';
import { type PostJsonOptions, postJson } from './outbound/http-call.js';

// The service calling a community's verification endpoint, judged by core's
// checkVerificationAnswer: the same three checks the conformance runner applies.

/** How a verification call ended. */
export const CALL_OUTCOMES = ['verified', 'not-verified', 'fault'] as const;
/** `verified` (200 with a message), `not-verified` (400 with a message) or `fault` (anything else). */
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

/** One verification call, judged. */
export interface VerificationCall {
  outcome: CallOutcome;
  /** The request as sent, its body as text, the API key redacted. */
  request: SentRequest;
  /**
   * The answer as received (its body's first 64 KiB); null when no complete answer came
   * (timeout, connection refused).
   */
  response: ReceivedAnswer | null;
  /** Why no answer came. */
  error: string | null;
  /** The member-facing message of a 200 or 400 that passed the checks. */
  message: string | null;
  durationMs: number;
  /** Violations of the platform's checks, warnings included. */
  violations: Violation[];
  /** Each platform check's verdict; `not_judged` for every check of a call that got no answer. */
  checks: Record<PlatformCheck, CheckVerdict>;
}

/** Headers of a verification call; `x-api-key` only when the task has a key. */
export function verificationHeaders(apiKey: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': 'questkit-mock-platform',
  };
  if (apiKey !== undefined && apiKey !== '') headers['x-api-key'] = apiKey;
  return headers;
}

/** Classifies an observed answer: only an answer that passes every check counts as an answer. */
export function judgeAttempt(
  attempt: ObservedAnswer,
): Pick<VerificationCall, 'outcome' | 'message' | 'violations' | 'checks'> {
  const report = checkVerificationAnswer(attempt);
  const answered = report.passed && report.message !== undefined;
  const outcome: CallOutcome =
    answered && attempt.status === 200
      ? 'verified'
      : answered && attempt.status === 400
        ? 'not-verified'
        : 'fault';
  return {
    outcome,
    message: outcome === 'fault' ? null : (report.message ?? null),
    violations: report.violations,
    checks: report.checks,
  };
}

/**
 * POSTs a verification body to an endpoint, with `X-Api-Key` when a key is given, and judges the
 * answer. Never throws.
 */
export async function callVerificationEndpoint(
  endpoint: string,
  body: VerificationRequest,
  options: {
    apiKey?: string;
    timeoutMs: number;
    /** How to POST (the platform's outbound gate); default straight out. */
    post?: (url: string, options: PostJsonOptions) => Promise<ObservedAnswer>;
  },
): Promise<VerificationCall> {
  const headers = verificationHeaders(options.apiKey);
  const post = options.post ?? postJson;
  const text = JSON.stringify(body);
  const attempt = await post(endpoint, { headers, body: text, timeoutMs: options.timeoutMs });
  const secrets = options.apiKey === undefined ? [] : [options.apiKey];
  return {
    ...judgeAttempt(attempt),
    request: recordSentRequest({ method: 'POST', url: endpoint, headers, body: text }, { secrets }),
    response: attempt.status === undefined ? null : recordReceivedAnswer(attempt, { secrets }),
    error: attempt.error ?? null,
    durationMs: Math.round(attempt.elapsedMs),
  };
}
