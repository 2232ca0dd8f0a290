import type { VerificationRequest } from '@questkit/core';
import {
  type CheckVerdict,
  checkVerificationAnswer,
  type ObservedAnswer,
  type PlatformCheck,
  type Violation,
} from '@questkit/core/api';
import { type PostJsonOptions, postJson } from './outbound/http-call.js';

// The service calling a community's verification endpoint, judged by core's
// checkVerificationAnswer: the same three checks the conformance runner applies.

/** How a verification call ended. */
export const CALL_OUTCOMES = ['verified', 'not-verified', 'fault'] as const;
/** `verified` (200 with a message), `not-verified` (400 with a message) or `fault` (anything else). */
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

/** What is shown in place of a secret in a recorded request. */
export const REDACTED = '[redacted]';

/** The request as sent, API key redacted. */
export interface SentRequest {
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  body: VerificationRequest;
}

/** The answer as recorded: the status, content type and body (its first 64 KiB) observed. */
export type ReceivedAnswer = Required<Pick<ObservedAnswer, 'status' | 'contentType' | 'body'>>;

/** One verification call, judged. */
export interface VerificationCall {
  outcome: CallOutcome;
  request: SentRequest;
  /** Null when no complete answer came (timeout, connection refused). */
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
  const attempt = await post(endpoint, {
    headers,
    body: JSON.stringify(body),
    timeoutMs: options.timeoutMs,
  });
  const judged = judgeAttempt(attempt);
  const shown = { ...headers };
  if ('x-api-key' in shown) shown['x-api-key'] = REDACTED;
  return {
    ...judged,
    request: { method: 'POST', url: endpoint, headers: shown, body },
    response:
      attempt.status === undefined
        ? null
        : {
            status: attempt.status,
            contentType: attempt.contentType ?? null,
            body: attempt.body ?? '',
          },
    error: attempt.error ?? null,
    durationMs: Math.round(attempt.elapsedMs),
  };
}
