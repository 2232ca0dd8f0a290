import {
  type CheckReport,
  checkVerificationAnswer,
  type ObservedAnswer,
  type ReceivedAnswer,
  recordReceivedAnswer,
  recordSentRequest,
  type SentRequest,
} from '@questkit/core/api';
import {
  CONNECT_CHECKS,
  type ConnectRequestId,
  connectVerdict,
  describeConnect,
} from './connect.js';
import { toCurl } from './curl.js';
import type { ConnectSent, Sent } from './exchange.js';
import type { Probe } from './probes.js';
import type { OutgoingRequest } from './send.js';
import type { Settings } from './settings.js';
import type {
  CheckResult,
  CheckStatus,
  Finding,
  LatencyStats,
  StatusCounts,
  Tier,
} from './types.js';

/**
 * Whether a check decides the run: hardening (requests the platform never sends) only in a
 * strict run. The one place this rule lives: findings, the verdict, fail-fast and assertions
 * all ask it.
 */
export function counts(check: { tier: Tier }, strict: boolean): boolean {
  return check.tier !== 'hardening' || strict;
}

/** How many of `checks` ended each way. */
export function countVerdicts(checks: readonly { status: CheckStatus }[]): StatusCounts {
  const count = (status: CheckStatus) => checks.filter((c) => c.status === status).length;
  return {
    total: checks.length,
    passed: count('pass'),
    warned: count('warn'),
    failed: count('fail'),
    skipped: count('skip'),
    notJudged: count('not_judged'),
  };
}

/** One answer, judged once: core's report of it and the probe's own findings. */
export interface JudgedAnswer {
  answer: ObservedAnswer;
  report: CheckReport;
  findings: Finding[];
  /** What in a 200's JSON says no, when something does. */
  refusal?: string;
}

/**
 * The judging step: a sent probe becomes its check. Each answer is judged once, by core's
 * `checkVerificationAnswer` on the whole answer (the mock platform uses the same function), then
 * by the probe's own expectation; the check shows the first failing answer, else the first
 * with a finding, else the first.
 */
export function judgeProbe(sent: Sent, settings: Settings, baselineStatus?: number): CheckResult {
  const { probe, tier } = sent.planned;
  const base = { id: probe.id, title: probe.title, group: probe.group, tier };
  const reason = sent.planned.skip ?? sent.cut;
  if (reason !== undefined || sent.exchanges.length === 0) {
    return {
      ...base,
      status: 'skip',
      findings: [],
      skipReason: reason ?? 'nothing was sent',
      durationMs: 0,
    };
  }
  const judged = sent.exchanges.map(({ answer }) =>
    judgeAnswer(probe, answer, settings, baselineStatus),
  );
  let findings = foldFindings(judged.map((one) => one.findings));
  const repeated: Partial<CheckResult> = {};
  if (probe.mode === 'burst' || probe.mode === 'series') {
    repeated.statuses = countStatuses(judged.map((one) => one.answer));
  }
  if (probe.mode === 'series') {
    repeated.latency = latencyStats(judged.map(({ answer }) => answer.elapsedMs));
    findings = [...findings, ...latencyFindings(repeated.latency, settings)];
  }
  // What the platform never sends warns, unless the run is strict.
  if (!counts({ tier }, settings.strict)) {
    findings = findings.map((finding) =>
      finding.severity === 'error' && finding.rule !== 'no_answer'
        ? { ...finding, severity: 'warning' }
        : finding,
    );
  }
  const failing = judged.findIndex((one) => statusOf(one.findings) === 'fail');
  const noted = judged.findIndex((one) => one.findings.length > 0);
  const shownIndex = failing >= 0 ? failing : noted >= 0 ? noted : 0;
  const shown = judged[shownIndex]!;
  const { request } = sent.exchanges[shownIndex]!;
  return {
    ...base,
    status: statusOf(findings),
    findings,
    sent: describeSent(request, settings),
    received: describeReceived(shown),
    curl: reproOf(request, settings),
    ...repeated,
    durationMs: sent.durationMs,
  };
}

/**
 * The connect checks, judged from the answers to the redirects by the connect flow's own rules
 * (`connectVerdict`); each shows the redirect it judged, its signature redacted.
 */
export async function judgeConnect(sent: ConnectSent, settings: Settings): Promise<CheckResult[]> {
  const answers: Partial<Record<ConnectRequestId, ObservedAnswer>> = {};
  for (const [id, exchange] of Object.entries(sent.exchanges)) {
    answers[id as ConnectRequestId] = exchange.answer;
  }
  const checks = sent.plan.ids.map(async (id): Promise<CheckResult> => {
    const { title } = CONNECT_CHECKS.find((check) => check.id === id)!;
    const base = { id, title, group: 'connect', tier: 'members' as const, durationMs: 0 };
    if (sent.cut !== undefined) {
      return { ...base, status: 'skip', findings: [], skipReason: sent.cut };
    }
    const shown = sent.exchanges[id === 'connect.callback' ? 'connect.signed-redirect' : id]!;
    const verdict = await connectVerdict(id, answers, sent.plan, settings.timeoutMs);
    const evidence = describeConnect(shown.request, shown.answer, settings);
    const findings = 'skip' in verdict ? [] : verdict.findings;
    return {
      ...base,
      ...evidence,
      status: 'skip' in verdict ? 'skip' : statusOf(findings),
      findings,
      ...('skip' in verdict ? { skipReason: verdict.skip } : {}),
      durationMs: Math.round(shown.answer.elapsedMs),
    };
  });
  return Promise.all(checks);
}

/** One answer through the platform's three checks and the probe's own expectation. */
function judgeAnswer(
  probe: Probe,
  answer: ObservedAnswer,
  limits: Limits,
  baselineStatus: number | undefined,
): JudgedAnswer {
  const report = checkVerificationAnswer(answer);
  const findings = [
    ...platformFindings(answer, limits, report, probe.scenario),
    ...expectationFindings(probe, answer, {
      ...(baselineStatus !== undefined ? { baselineStatus } : {}),
    }),
  ];
  const refusal = answer.status === 200 ? refusalOf(report.fields) : undefined;
  return { answer, report, findings, ...(refusal !== undefined ? { refusal } : {}) };
}

/** What in a 200's JSON says the claim was refused: the platform reads only the status. */
function refusalOf(fields: CheckReport['fields']): string | undefined {
  if (fields === undefined) return undefined;
  for (const name of ['verified', 'success', 'ok'] as const) {
    if (fields[name] === false) return `"${name}": false`;
  }
  const error = fields.error;
  if (error !== undefined && error !== null && error !== false && error !== '') {
    return 'an "error" field';
  }
  return undefined;
}

function countStatuses(answers: readonly ObservedAnswer[]): Record<string, number> {
  const statuses: Record<string, number> = {};
  for (const answer of answers) {
    const key =
      answer.status !== undefined ? String(answer.status) : answer.timedOut ? 'timeout' : 'error';
    statuses[key] = (statuses[key] ?? 0) + 1;
  }
  return statuses;
}

/** The limits a run judges answers by, in ms. */
export interface Limits {
  timeoutMs: number;
  slowMs: number;
}

/**
 * The platform's three checks on one answer, decided by core's `checkVerificationAnswer` (the
 * mock platform uses the same function, so both always agree). The runner only restates a
 * timeout in its own limit, adds a slowness warning at its own threshold, and says, after a
 * status the platform refuses, when the platform sends such a call (`scenario`).
 */
export function platformFindings(
  answer: ObservedAnswer,
  limits: Limits,
  report: CheckReport = checkVerificationAnswer(answer),
  scenario?: string,
): Finding[] {
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
        : v.check === 'status_code' && scenario !== undefined
          ? `${v.message}. ${scenario}`
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

// What a check shows of the exchange it judged: display copies (core's record of a call), cut to
// a readable length, with the run's key redacted. Nothing is judged from them.

/** How much of a body a report shows. */
export const PREVIEW_CHARS = 1000;

/** The request as the report shows it; only the run's own key is a secret (a wrong one is shown). */
export function describeSent(request: OutgoingRequest, settings: Settings): SentRequest {
  return recordSentRequest(request, {
    secrets: !settings.showSecrets && settings.apiKey !== undefined ? [settings.apiKey] : [],
    maxBodyChars: PREVIEW_CHARS,
  });
}

/** The answer as the report shows it, with what the judge read in the whole body. */
export function describeReceived(judged: JudgedAnswer): ReceivedAnswer {
  const { answer, report, refusal } = judged;
  return {
    ...recordReceivedAnswer(answer, { maxBodyChars: PREVIEW_CHARS }),
    ...(report.message !== undefined ? { message: report.message } : {}),
    ...(refusal !== undefined ? { refusal } : {}),
  };
}

/** A curl line that sends the request again; it reads the run's key from the shell. */
export function reproOf(request: OutgoingRequest, settings: Settings): string {
  return toCurl(request, {
    timeoutMs: settings.timeoutMs,
    ...(settings.showSecrets ? {} : { redactApiKey: settings.apiKey }),
  });
}
