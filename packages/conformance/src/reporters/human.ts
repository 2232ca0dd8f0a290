import { PLATFORM_CHECKS, type PlatformCheck } from '@questkit/core/api';
import { escapeText } from '../escape.js';
import { CLAIM_PROBE_ID } from '../probes.js';
import {
  type CheckResult,
  type CheckStatus,
  type ConformanceReport,
  type ProgressEvent,
  TIERS,
  type TierVerdict,
} from '../types.js';
import { type Palette, palette } from './ansi.js';

/** Options of the human reporter. */
export interface HumanFormatOptions {
  /** ANSI colors (for a terminal). Default false. */
  color?: boolean;
  /** Print every detail of warnings, and of passing checks too. Default false. */
  verbose?: boolean;
}

const LABELS: Record<CheckStatus | 'not_run', string> = {
  pass: 'PASS',
  warn: 'WARN',
  fail: 'FAIL',
  skip: 'SKIP',
  not_judged: 'NOT JUDGED',
  not_run: 'not run',
};
const BODY_PREVIEW = 240;

function label(status: CheckStatus | TierVerdict, p: Palette): string {
  if (status === 'not_judged') return p.yellow(LABELS[status]);
  if (status === 'not_run') return p.dim(LABELS[status]);
  const text = LABELS[status];
  if (status === 'pass') return p.green(text);
  if (status === 'warn') return p.yellow(text);
  if (status === 'fail') return p.red(p.bold(text));
  return p.dim(text);
}

/**
 * Shows text from the endpoint on one line with every character that could act on a terminal
 * escaped (controls, bidi, invisible and tag characters: see `escapeText`), so an answer can
 * neither break the layout, send escape sequences, reorder the text around it nor hide words.
 */
export function visible(text: string, limit = BODY_PREVIEW): string {
  const cut = text.length > limit ? `${text.slice(0, limit)}…` : text;
  return escapeText(cut);
}

// A sentence ends at . ! or ? (a closing quote or bracket may follow) before a space or the end.
const SENTENCE_END = /[.!?]["')\]]?(?=\s|$)/g;

/**
 * Our own words (a finding, a reason, advice) escaped as {@link visible}, never cut inside a word
 * or a sentence: over `limit` characters, the whole sentences that fit (at least the first) and a
 * note that `--verbose` shows the rest; `whole` (--verbose) keeps every sentence.
 */
export function visibleProse(text: string, limit: number, whole = false): string {
  if (whole || text.length <= limit) return escapeText(text);
  let end = 0;
  for (const match of text.matchAll(SENTENCE_END)) {
    const at = match.index + match[0].length;
    if (at > limit && end > 0) break;
    end = at;
    if (at > limit) break;
  }
  if (end === 0 || end >= text.trimEnd().length) return escapeText(text);
  return `${escapeText(text.slice(0, end))} (more with --verbose)`;
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

/** One line for a live progress display: `[ 3/38] PASS auth.wrong-key`. */
export function formatProgress(event: ProgressEvent, options: HumanFormatOptions = {}): string {
  const p = palette(options.color === true);
  const width = String(event.total).length;
  return `[${String(event.done).padStart(width)}/${event.total}] ${label(event.check.status, p)} ${event.check.id}`;
}

function details(check: CheckResult, p: Palette, full: boolean, verbose: boolean): string[] {
  const lines: string[] = [];
  const indent = '        ';
  for (const finding of check.findings) {
    const mark = finding.severity === 'error' ? p.red('✗') : p.yellow('!');
    lines.push(
      `${indent}${mark} ${p.bold(finding.rule)}: ${visibleProse(finding.message, 400, full || verbose)}`,
    );
  }
  if (check.sent && full) {
    const { sent } = check;
    const headers = Object.entries(sent.headers)
      .map(([name, value]) => `${name}: ${visible(value, 80)}`)
      .join(', ');
    lines.push(
      `${indent}${p.dim('sent')}  ${sent.method} ${visible(sent.url, 600)}${headers ? `  ${p.dim(`(${headers})`)}` : ''}  ${p.dim(`${sent.bodyBytes} B`)}`,
    );
    // The curl line below carries the body; print it here only when there is no curl line.
    if (!check.curl && sent.body) lines.push(`${indent}      ${p.dim(visible(sent.body))}`);
  }
  const got = check.received;
  if (got) {
    const head =
      got.status !== undefined
        ? `${got.status}${got.contentType ? ` ${visible(got.contentType, 80)}` : ''}${got.location ? ` -> ${visible(got.location, 160)}` : ''}`
        : got.timedOut
          ? 'no answer (timed out)'
          : `no answer: ${visibleProse(got.error ?? 'the request failed', 400, verbose)}`;
    lines.push(`${indent}${p.dim('got')}   ${head} ${p.dim(`in ${formatMs(got.elapsedMs)}`)}`);
    if (full && got.body !== undefined && got.body !== '')
      lines.push(`${indent}      ${p.dim(visible(got.body))}`);
  }
  if (check.statuses) {
    const counts = Object.entries(check.statuses)
      .map(([status, count]) => `${status} x${count}`)
      .join(', ');
    lines.push(`${indent}${p.dim('answers')} ${counts}`);
  }
  if (check.latency) {
    const { p50, p95, max, samples } = check.latency;
    lines.push(
      `${indent}${p.dim('latency')} p50 ${formatMs(p50)}, p95 ${formatMs(p95)}, max ${formatMs(max)} over ${samples} claims`,
    );
  }
  if (check.curl && full) {
    lines.push(`${indent}${p.dim('repro')} ${check.curl.split('\n').join(`\n${indent}      `)}`);
  }
  return lines;
}

/**
 * The human report, failures first: the headline when every claim got the same wrong answer,
 * each failure in full (why, what was sent, what came back, a curl line), one line per warning
 * and per check not judged, what was skipped and why, then the verdicts and what to do next.
 * Each check is listed once; `verbose` shows warnings and passes in full too.
 *
 * @example
 * process.stdout.write(formatHuman(report, { color: process.stdout.isTTY }));
 */
export function formatHuman(report: ConformanceReport, options: HumanFormatOptions = {}): string {
  const p = palette(options.color === true);
  const { summary } = report;
  const verbose = options.verbose === true;
  const out: string[] = [];
  out.push(
    `${p.bold('questkit check')} ${visible(report.url, 600)}  ${p.dim(`(time limit ${report.timeoutMs} ms, slow over ${report.slowMs} ms)`)}`,
    '',
  );
  if (summary.headline !== undefined)
    out.push(p.bold(visibleProse(summary.headline, 1200, verbose)), '');
  // Under a headline every claim got the same answer: the first failure says it, not forty.
  const first = report.checks.find((c) => c.status === 'fail');
  const stopped = report.stoppedAnswering !== undefined;
  const headlined = (c: CheckResult) =>
    summary.headline !== undefined &&
    !stopped &&
    c !== first &&
    c.received !== undefined &&
    c.received.status === first?.received?.status &&
    sameRules(c, first) &&
    (c.status === 'fail' || c.status === 'warn');
  // Once the server stopped, every later check got the same refused connection: one line says it.
  const afterStop = (c: CheckResult) =>
    stopped &&
    c.status === 'not_judged' &&
    c.received !== undefined &&
    c.received.status === undefined &&
    !c.received.timedOut;
  const folded = report.checks.filter(headlined);
  const unanswered = report.checks.filter(afterStop);
  const listed = report.checks.filter((c) => !headlined(c) && !afterStop(c));
  for (const check of listed.filter((c) => c.status === 'fail')) {
    out.push(...block(check, p, true, verbose), '');
  }
  if (folded.length > 0) {
    out.push(
      p.dim(`  ${folded.length} more checks got the same answer: see the line at the top.`),
      '',
    );
  }
  if (unanswered.length > 0) {
    out.push(
      p.dim(
        `  ${unanswered.length} more checks got no answer once the server had stopped (not judged): see the line at the top.`,
      ),
      '',
    );
  }
  const warned = listed.filter((c) => c.status === 'warn');
  const unjudged = listed.filter((c) => c.status === 'not_judged');
  const passed = listed.filter((c) => c.status === 'pass');
  if (verbose) {
    for (const check of [...warned, ...unjudged, ...passed]) {
      out.push(...block(check, p, true, verbose), '');
    }
  } else if (warned.length + unjudged.length > 0) {
    for (const check of [...warned, ...unjudged]) out.push(oneLine(check, p));
    if (!report.strict && warned.some((c) => c.tier === 'hardening')) {
      out.push(
        p.dim('  [hardening]: requests the platform never sends; --strict makes them failures'),
      );
    }
    out.push('');
  }
  const skipped = skippedLines(report.checks, p);
  if (skipped.length > 0) out.push(...skipped, '');

  const platform = (Object.keys(PLATFORM_CHECKS) as PlatformCheck[])
    .map((check) => `${check} ${label(summary.platform[check], p)}`)
    .join('  ');
  out.push(`Platform checks: ${platform}`);
  out.push(`Tiers: ${TIERS.map((tier) => `${tier} ${label(summary.tiers[tier], p)}`).join('  ')}`);
  if (summary.claim) {
    const claimCheck = report.checks.find((c) => c.id === CLAIM_PROBE_ID);
    out.push(claimLine(summary.claim, claimCheck?.status === 'fail'));
  }
  const counts = [
    p.green(`${summary.passed} passed`),
    summary.warned > 0 ? p.yellow(`${summary.warned} warned`) : `${summary.warned} warned`,
    summary.failed > 0 ? p.red(`${summary.failed} failed`) : `${summary.failed} failed`,
    ...(summary.notJudged > 0 ? [p.yellow(`${summary.notJudged} not judged`)] : []),
    `${summary.skipped} skipped`,
  ].join(', ');
  out.push(
    `${summary.total} check${summary.total === 1 ? '' : 's'}: ${counts} in ${formatMs(summary.durationMs)}`,
  );
  for (const advice of summary.advice) {
    out.push(`${p.bold('Next:')} ${visibleProse(advice, 600, verbose)}`);
  }
  out.push(verdictLine(report, p));
  return `${out.join('\n')}\n`;
}

/** A check in full: its status, id and tier, then its details. */
function block(check: CheckResult, p: Palette, full: boolean, verbose: boolean): string[] {
  return [
    `  ${label(check.status, p)}  ${p.bold(check.id)}  ${p.dim(`[${check.tier}]`)}  ${check.title}`,
    ...(check.skipReason !== undefined && check.status === 'not_judged'
      ? [`        ${p.dim(visibleProse(check.skipReason, 600, verbose))}`]
      : []),
    ...details(check, p, full, verbose),
  ];
}

/** A warning or a check not judged in one line: its first reason, and how many more. */
function oneLine(check: CheckResult, p: Palette): string {
  const [first, ...rest] = check.findings;
  const why = first
    ? `${first.rule}: ${first.message}${rest.length > 0 ? ` (+${rest.length} more)` : ''}`
    : (check.skipReason ?? '');
  return `  ${label(check.status, p)}  ${check.id}  ${p.dim(`[${check.tier}]`)}  ${visibleProse(why, 400)}`;
}

/** Skipped checks, one line per reason: their ids when few, else how many. */
function skippedLines(checks: readonly CheckResult[], p: Palette): string[] {
  const byReason = new Map<string, CheckResult[]>();
  for (const check of checks.filter((c) => c.status === 'skip')) {
    const reason = check.skipReason ?? 'skipped';
    byReason.set(reason, [...(byReason.get(reason) ?? []), check]);
  }
  return [...byReason].map(([reason, skipped]) => {
    const which =
      skipped.length <= 3 ? skipped.map((c) => c.id).join(', ') : `${skipped.length} checks`;
    return `  ${label('skip', p)}  ${which}: ${visibleProse(reason, 600)}`;
  });
}

/**
 * What the sample claim got. A 400 is the handler refusing a member it does not know, which the
 * platform accepts: said so, lest it read as a failure next to PASSED; never when the claim's own
 * check failed.
 */
function claimLine(
  claim: NonNullable<ConformanceReport['summary']['claim']>,
  failed: boolean,
): string {
  const answer = visible(claim.answer);
  if (failed) return `The sample claim got ${answer}: the platform fails it (see above)`;
  if (claim.status === 400)
    return `Your handler refused the sample member with ${answer}: a member who has not done the task reads this (a valid answer)`;
  if (claim.status === 200) return `Your handler accepted the sample member with ${answer}`;
  return `The sample claim got: ${answer}`;
}

/** Whether two checks failed for the same reasons (the same rules), so one can stand for both. */
function sameRules(a: CheckResult, b: CheckResult | undefined): boolean {
  const rules = (c: CheckResult) =>
    [...new Set(c.findings.filter((f) => f.severity === 'error').map((f) => f.rule))].sort().join();
  return b !== undefined && (a.status === 'warn' || rules(a) === rules(b));
}

/** The last line: the verdict, and what decided it. */
function verdictLine(report: ConformanceReport, p: Palette): string {
  const { summary } = report;
  if (summary.verdict === 'fail') {
    const tiers = TIERS.filter((tier) => summary.tiers[tier] === 'fail').join(' and ');
    return p.red(
      p.bold(
        `FAILED (${tiers}): fix the checks above before the platform or your members find them.`,
      ),
    );
  }
  if (summary.verdict === 'not_judged') {
    return p.yellow(
      p.bold(
        summary.headline !== undefined && report.unreachable !== undefined
          ? 'NOT JUDGED: the endpoint never answered.'
          : 'NOT JUDGED: the run could not judge everything the platform will meet (see above).',
      ),
    );
  }
  const warned =
    summary.tiers.hardening === 'warn' ? ' Hardening warnings above are worth a look.' : '';
  const open = report.checks.filter(
    (c) => c.tier === 'members' && (c.status === 'not_judged' || c.status === 'skip'),
  );
  if (open.length === 0 && summary.tiers.members !== 'not_run') {
    return p.green(
      p.bold(`PASSED: the platform's checks and your members' claims will go through.${warned}`),
    );
  }
  const which =
    open.length === 0
      ? 'no members check ran'
      : `${open.map((c) => c.id).join(', ')} ${open.length === 1 ? 'was' : 'were'} not judged`;
  return p.green(
    p.bold(
      `PASSED: the platform's checks will go through. Your members' side is not promised: ${which} (see above for how to judge ${open.length === 1 ? 'it' : 'them'}).${warned}`,
    ),
  );
}
