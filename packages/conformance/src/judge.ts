import { checkVerificationAnswer, type ObservedAnswer } from '@questkit/core/api';
import type { Probe } from './probes.js';
import type { CheckStatus, Finding, LatencyStats } from './types.js';

/** The limits a run judges answers by, in ms. */
export interface Limits {
  timeoutMs: number;
  slowMs: number;
}

/**
 * The platform's three checks on one answer, decided by core's `checkVerificationAnswer` (the
 * mock platform uses the same function, so both always agree). The runner only restates a
 * timeout in its own limit and adds a slowness warning at its own threshold.
 */
export function platformFindings(answer: ObservedAnswer, limits: Limits): Finding[] {
  const report = checkVerificationAnswer(answer);
  // Nothing came back: the call is not judged, and never passes.
  if (!report.judged) {
    return [{ rule: 'no_answer', severity: 'error', message: report.unanswered ?? 'no answer' }];
  }
  const findings: Finding[] = report.violations.map((v) => ({
    rule: v.check,
    severity: v.severity,
    message:
      v.check === 'response_time' && answer.timedOut
        ? `no complete answer within ${limits.timeoutMs} ms`
        : v.message,
  }));
  const timeFlagged = findings.some((f) => f.rule === 'response_time');
  if (!timeFlagged && !answer.timedOut && answer.elapsedMs > limits.slowMs) {
    findings.push({
      rule: 'response_time',
      severity: 'warning',
      message: `answered in ${Math.round(answer.elapsedMs)} ms, over ${limits.slowMs} ms and close to the ${limits.timeoutMs} ms limit`,
    });
  }
  return findings;
}

/** What the probe's own expectation needs besides the answer. */
export interface ExpectationContext {
  /** The status the well-formed claim got, when it got one. */
  baselineStatus?: number;
}

/** The probe's own expectation on one answer; only judged on a 200 or a 400. */
export function expectationFindings(
  probe: Probe,
  answer: ObservedAnswer,
  context: ExpectationContext,
): Finding[] {
  const { status } = answer;
  if (status !== 200 && status !== 400) return [];
  const expectation = probe.expect;
  switch (expectation.kind) {
    case 'any':
    case 'claim':
      // Whether the claim answers as the run expects is a member verdict (member.answer).
      return [];
    case 'rejected':
      if (status !== 200) return [];
      return [
        {
          rule: probe.group === 'auth' ? 'auth' : 'expected_status',
          severity: expectation.accepted === 'fail' ? 'error' : 'warning',
          message: expectation.why,
        },
      ];
    case 'tolerated': {
      const baseline = context.baselineStatus;
      if ((baseline !== 200 && baseline !== 400) || baseline === status) return [];
      return [
        error(
          'tolerance',
          `answered ${status} where the well-formed claim answered ${baseline}: ignore fields you do not know, the platform may add some`,
        ),
      ];
    }
  }
}

function error(rule: Finding['rule'], message: string): Finding {
  return { rule, severity: 'error', message };
}

/**
 * `fail` on any error, else `not_judged` when an answer never came, `warn` on any warning, else
 * `pass`.
 */
export function statusOf(findings: readonly Finding[]): CheckStatus {
  if (findings.some((f) => f.severity === 'error' && f.rule !== 'no_answer')) return 'fail';
  if (findings.some((f) => f.rule === 'no_answer')) return 'not_judged';
  if (findings.some((f) => f.severity === 'warning')) return 'warn';
  return 'pass';
}

/**
 * Folds the findings of many answers into one list: one finding per rule and severity, its first
 * message, and how many of the answers had it.
 */
export function foldFindings(perAnswer: readonly Finding[][]): Finding[] {
  const folded = new Map<string, { finding: Finding; count: number }>();
  for (const findings of perAnswer) {
    const seen = new Set<string>();
    for (const finding of findings) {
      const key = `${finding.rule}/${finding.severity}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const entry = folded.get(key);
      if (entry) entry.count++;
      else folded.set(key, { finding, count: 1 });
    }
  }
  return [...folded.values()].map(({ finding, count }) =>
    perAnswer.length > 1
      ? { ...finding, message: `${finding.message} (${count} of ${perAnswer.length} claims)` }
      : finding,
  );
}

/** p50, p95 and max of a series by the nearest-rank method, rounded to 0.1 ms. */
export function latencyStats(elapsed: readonly number[]): LatencyStats {
  const sorted = [...elapsed].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    samples: sorted.length,
    p50: round(rank(50)),
    p95: round(rank(95)),
    max: round(sorted[sorted.length - 1] ?? 0),
  };
}

/** A warning when the series' p95 is past the slowness threshold. */
export function latencyFindings(stats: LatencyStats, limits: Limits): Finding[] {
  if (stats.samples === 0 || stats.p95 <= limits.slowMs) return [];
  return [
    {
      rule: 'latency',
      severity: 'warning',
      message: `p95 is ${Math.round(stats.p95)} ms, over ${limits.slowMs} ms: a slow day will cross the ${limits.timeoutMs} ms limit`,
    },
  ];
}
