import type { IdentificationMethod } from '@questkit/core';
import { PLATFORM_CHECKS, type PlatformCheck } from '@questkit/core/api';
import { endpointText } from './endpoint-text.js';
import { counts, countVerdicts, statusOf } from './judge.js';
import { CLAIM_PROBE_ID } from './probes.js';
import type { StoppedAnswering } from './stopped-answering.js';
import {
  type CheckResult,
  type PlatformVerdict,
  type ReceivedAnswer,
  type ReportSummary,
  type RunVerdict,
  TIERS,
  type Tier,
  type TierVerdict,
} from './types.js';

/** What the summary needs to know of the run besides its checks. */
export interface SummaryContext {
  url: string;
  /** The run was given the task's key, or told the task has none. */
  keyDecided: boolean;
  strict: boolean;
  /** The task's identification methods, when the run was given them. */
  identifications: readonly IdentificationMethod[] | undefined;
  /** Set when the server answered, then stopped: its sentence leads the report. */
  stopped?: StoppedAnswering;
  /** The `accounts` shape a check sent, as identification methods, when it is a shape probe. */
  shapeOf: (check: CheckResult) => readonly IdentificationMethod[] | undefined;
  durationMs: number;
}

/** Counts, tiers, the platform's verdict, the run's verdict and what to do next. */
export function summarize(checks: readonly CheckResult[], context: SummaryContext): ReportSummary {
  const tiers = Object.fromEntries(
    TIERS.map((tier) => [tier, tierVerdict(checks.filter((c) => c.tier === tier))]),
  ) as Record<Tier, TierVerdict>;
  const verdict = runVerdict(checks, context);
  const headline = context.stopped?.message ?? headlineOf(checks, context.url);
  const advice = [
    ...(context.keyDecided
      ? []
      : [
          'No API key was given, so the run cannot tell what the platform will meet: run with --api-key <the task key>, or with --no-api-key when the task has none.',
        ]),
    ...methodAdvice(checks, context.url),
    ...configurationAdvice(checks, context),
  ];
  const claim = checks.find((c) => c.id === CLAIM_PROBE_ID)?.received;
  return {
    ...countVerdicts(checks),
    verdict,
    ok: verdict === 'pass',
    tiers,
    platform: platformVerdict(checks.filter((c) => c.tier === 'platform')),
    ...(headline !== undefined ? { headline } : {}),
    advice,
    ...(claim ? { claim: claimAnswer(claim) } : {}),
    durationMs: Math.round(context.durationMs),
  };
}

/** The worst status of a tier's checks that ran; `not_run` when none did. */
function tierVerdict(checks: readonly CheckResult[]): TierVerdict {
  const ran = checks.filter((c) => c.status !== 'skip');
  if (ran.length === 0) return 'not_run';
  for (const status of ['fail', 'not_judged', 'warn'] as const) {
    if (ran.some((c) => c.status === status)) return status;
  }
  return 'pass';
}

/**
 * `fail` when a check that decides the exit code failed (platform and members; hardening too when
 * strict), else `not_judged` when one of them could not be judged or the key is undecided.
 */
function runVerdict(checks: readonly CheckResult[], context: SummaryContext): RunVerdict {
  const counted = checks.filter((c) => counts(c, context.strict));
  if (counted.some((c) => c.status === 'fail')) return 'fail';
  // An unjudged key never holds the run back: the key decision is `keyDecided`, and the other
  // causes (no business answer to compare) fail a platform check of their own.
  const unjudged = counted.filter((c) => c.status === 'not_judged' && c.id !== 'member.api-key');
  if (!context.keyDecided || unjudged.length > 0) return 'not_judged';
  // A run that judged nothing (everything skipped) has not passed either.
  if (!counted.some((c) => c.status === 'pass' || c.status === 'warn')) return 'not_judged';
  return 'pass';
}

/** The platform's verdict per automatic check, over the platform tier's calls only. */
function platformVerdict(platform: readonly CheckResult[]): PlatformVerdict {
  const ran = platform.filter((c) => c.status !== 'skip');
  const answered = ran.some((c) => c.received?.status !== undefined);
  const observed = answered || ran.some((c) => c.received?.timedOut);
  const unanswered = ran.some((c) => c.findings.some((f) => f.rule === 'no_answer'));
  return Object.fromEntries(
    (Object.keys(PLATFORM_CHECKS) as PlatformCheck[]).map((check) => {
      const status = statusOf(ran.flatMap((c) => c.findings).filter((f) => f.rule === check));
      if (status === 'fail') return [check, 'fail'];
      // A call without an answer judged nothing, so the check cannot pass.
      const judged = check === 'response_time' ? observed : answered;
      return [check, !judged || unanswered ? 'not_judged' : status];
    }),
  ) as PlatformVerdict;
}

/**
 * One sentence when every claim the platform sends got the same answer outside the contract: the
 * cause is then the URL, the server or something in front of the handler, not one check after
 * another. Only the platform's calls count (requests it never sends may be answered by a body
 * parser before the route), so the mock platform, which sends only those, says the same.
 */
export function headlineOf(checks: readonly CheckResult[], url: string): string | undefined {
  const sent = checks.filter((c) => c.received !== undefined && c.tier === 'platform');
  if (sent.length === 0) return undefined;
  const first = sent[0]!.received!;
  if (sent.length === 1 && first.status === undefined && !first.timedOut) {
    // Only the first claim was sent: the endpoint was unreachable and the rest skipped.
    return `No answer from ${url}: ${first.error ?? 'the request failed'}. Is the endpoint running, and are the host, port and scheme right?`;
  }
  if (sent.length < 2) return undefined;
  const statuses = new Set(sent.map((c) => c.received?.status));
  if (statuses.size !== 1) return undefined;
  const status = first.status;
  if (status === undefined) {
    if (sent.every((c) => c.received?.timedOut)) {
      return `No claim got an answer in time from ${url}: the endpoint hangs before it answers. Is a middleware waiting for a body or a database?`;
    }
    // Answers that failed otherwise: the first claim did not (it would have stopped the run).
    return undefined;
  }
  if (status === 200 || status === 400) return sameFailure(sent);
  const path = new URL(url).pathname;
  if (status === 404) {
    return `Every claim got 404: nothing answers a POST at ${path}. Is the path right? The platform POSTs its claims as JSON.`;
  }
  if (status === 405) {
    return `Every claim got 405: nothing takes a POST at ${path}. The platform POSTs its claims as JSON: does the route accept POST?`;
  }
  if (status === 401 || status === 403) {
    return `Every claim got ${status}, with the task key or without: something in front of your handler refuses them (an auth middleware, a proxy). The platform sends only X-Api-Key; answer 200 or 400.`;
  }
  if (status >= 300 && status < 400) {
    return `Every claim got ${status}, a redirect${first.location ? ` to ${first.location}` : ''}: the platform does not follow redirects. Configure the final URL.`;
  }
  if (status >= 500) {
    return `Every claim got ${status}: the endpoint fails before it reads the claim. Look at its log.`;
  }
  return `Every claim got ${status}, a status the platform never accepts.`;
}

/**
 * Every claim answered 200 or 400 the same way, and each failed the same platform check for the
 * same reason (a text "OK", a body without a message): one fix, said once.
 */
function sameFailure(sent: readonly CheckResult[]): string | undefined {
  const reasons = (c: CheckResult) =>
    c.findings
      .filter((f) => f.severity === 'error' && f.rule in PLATFORM_CHECKS)
      .map((f) => `${f.rule}: ${f.message}`)
      .join('; ');
  const first = reasons(sent[0]!);
  if (first === '' || !sent.every((c) => c.status === 'fail' && reasons(c) === first)) {
    return undefined;
  }
  const answer = sent[0]!.received!;
  const said = endpointText(answer.body);
  const type = answer.contentType ? ` ${answer.contentType.split(';')[0]}` : '';
  const shown = said === undefined ? ' with no body' : ` "${said}"`;
  const fix = first.startsWith('message_format')
    ? ' Answer {"message": "..."} as JSON, 200 when the member did the task, 400 when not.'
    : '';
  return `Every claim got the same answer, ${answer.status}${type}${shown}, and the platform fails each one: ${first}.${fix}`;
}

/**
 * When the platform tier failed only on claim shapes that a narrower task configuration would
 * never produce: the configurations whose shapes passed.
 */
function configurationAdvice(checks: readonly CheckResult[], context: SummaryContext): string[] {
  if (context.identifications !== undefined) return [];
  const platform = checks.filter((c) => c.tier === 'platform');
  const failed = platform.filter((c) => c.status === 'fail');
  // Said only when every failure is a claim shape: a drifted key's failure is no shape's.
  if (failed.length === 0 || !failed.every((c) => context.shapeOf(c) !== undefined)) return [];
  const passing = platform
    .filter((c) => c.status === 'pass' || c.status === 'warn')
    .map((c) => context.shapeOf(c))
    .filter((shape): shape is readonly IdentificationMethod[] => shape !== undefined);
  if (passing.length === 0) return [];
  const named = (shape: readonly IdentificationMethod[]) =>
    shape.length === 0 ? 'no identification method' : shape.join(' + ');
  const flag = (shape: readonly IdentificationMethod[]) =>
    `--identifications ${shape.length === 0 ? "''" : shape.join(',')}`;
  return [
    `Only claims shaped for some identification methods failed; claims for a task configured with ${passing.map(named).join(', or ')} passed. If that is the task's configuration, say so (${flag(passing[0]!)}): the other shapes are then hardening checks.`,
  ];
}

/**
 * A route that answers GET but not the platform's POST: every claim got 404 or 405 while a GET
 * got another answer.
 */
function methodAdvice(checks: readonly CheckResult[], url: string): string[] {
  const claims = checks.filter((c) => c.tier === 'platform' && c.received?.status !== undefined);
  const get = checks.find((c) => c.id === 'http.method-get')?.received?.status;
  const refused = (status: number | undefined) => status === 404 || status === 405;
  if (claims.length === 0 || !claims.every((c) => refused(c.received?.status))) return [];
  if (get === undefined || refused(get)) return [];
  return [
    `A GET to ${new URL(url).pathname} got ${get} where every POST got ${claims[0]!.received!.status}: the route answers GET only. The platform POSTs its claims as JSON: declare the route for POST (app.post, export async function POST).`,
  ];
}

/** The well-formed claim's answer, as the member would read it. */
function claimAnswer(received: ReceivedAnswer): NonNullable<ReportSummary['claim']> {
  if (received.status === undefined) {
    return {
      answer: received.timedOut
        ? 'no answer within the time limit'
        : (received.error ?? 'no answer'),
    };
  }
  const { message } = received;
  return {
    status: received.status,
    ...(message !== undefined ? { message } : {}),
    answer:
      message !== undefined
        ? `${received.status} "${message}"`
        : `${received.status} (no JSON message)`,
  };
}
