import { PLATFORM_CHECKS, type PlatformCheck } from '@questkit/core/api';
import {
  type CheckResult,
  type CheckStatus,
  type ConformanceReport,
  type ProgressEvent,
  TIERS,
  type Tier,
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

/** Each tier's heading in the report. */
const TIER_HEADINGS: Record<Tier, string> = {
  platform: "Platform: the platform's three checks, on the calls it makes for the task",
  members: 'Members: what members will meet',
  hardening: 'Hardening: requests the platform never sends',
};

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
 * Shows text from the endpoint on one line with its control characters escaped, so an answer can
 * neither break the layout, send escape sequences to the terminal, nor reorder the text around it
 * in a bidi-aware terminal (bidi marks, embeddings, overrides and isolates).
 */
export function visible(text: string, limit = BODY_PREVIEW): string {
  const cut = text.length > limit ? `${text.slice(0, limit)}…` : text;
  return cut.replace(
    /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g,
    (c) =>
      c === '\n'
        ? '\\n'
        : c === '\t'
          ? '\\t'
          : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
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

function details(check: CheckResult, p: Palette, full: boolean): string[] {
  const lines: string[] = [];
  const indent = '        ';
  for (const finding of check.findings) {
    const mark = finding.severity === 'error' ? p.red('✗') : p.yellow('!');
    lines.push(`${indent}${mark} ${p.bold(finding.rule)}: ${visible(finding.message, 400)}`);
  }
  if (check.sent && full) {
    const { sent } = check;
    const headers = Object.entries(sent.headers)
      .map(([name, value]) => `${name}: ${visible(value, 80)}`)
      .join(', ');
    lines.push(
      `${indent}${p.dim('sent')}  ${sent.method} ${sent.url}${headers ? `  ${p.dim(`(${headers})`)}` : ''}  ${p.dim(`${sent.bodyBytes} B`)}`,
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
          : `no answer: ${got.error ?? 'the request failed'}`;
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
 * The human report: the headline when every request got the same wrong answer, a table of every
 * check by tier (platform, members, hardening), then the details (why, what was sent, what came
 * back, a curl line) of each failing or warning check, then the verdicts and what to do next.
 *
 * @example
 * process.stdout.write(formatHuman(report, { color: process.stdout.isTTY }));
 */
export function formatHuman(report: ConformanceReport, options: HumanFormatOptions = {}): string {
  const p = palette(options.color === true);
  const { summary } = report;
  const strict = report.strict === true;
  const out: string[] = [];
  out.push(
    `${p.bold('questkit check')} ${report.url}  ${p.dim(`(time limit ${report.timeoutMs} ms, slow over ${report.slowMs} ms)`)}`,
    '',
  );
  if (summary.headline !== undefined) out.push(p.bold(summary.headline), '');
  const idWidth = Math.max(...report.checks.map((c) => c.id.length), 2);
  // Checks skipped because the whole run could not go on say nothing one by one: one line says it.
  const wholesale = new Set(['the endpoint is unreachable', 'the run was stopped']);
  for (const tier of TIERS) {
    const checks = report.checks.filter((c) => c.tier === tier);
    if (checks.length === 0) continue;
    const note =
      tier === 'hardening'
        ? p.dim(strict ? ' (strict: failures count)' : ' (warnings; --strict makes them failures)')
        : '';
    out.push(`${p.bold(TIER_HEADINGS[tier])}${note}`);
    const bulk = checks.filter((c) => c.status === 'skip' && wholesale.has(c.skipReason ?? ''));
    for (const check of checks) {
      if (bulk.includes(check)) continue;
      const reason =
        (check.status === 'skip' || check.status === 'not_judged') && check.skipReason
          ? p.dim(`  (${check.skipReason})`)
          : '';
      const time = check.status === 'skip' ? '' : formatMs(check.durationMs);
      out.push(
        `  ${label(check.status, p)}  ${p.dim(time.padStart(7))}  ${check.id.padEnd(idWidth)}  ${check.title}${reason}`,
      );
    }
    if (bulk.length > 0) {
      const reason = bulk[0]?.skipReason ?? '';
      out.push(
        `  ${label('skip', p)}  ${' '.repeat(7)}  ${p.dim(`${bulk.length} more checks: ${reason}`)}`,
      );
    }
    out.push('');
  }
  const explained = report.checks.filter(
    (c) =>
      c.status === 'fail' ||
      c.status === 'warn' ||
      (c.status === 'not_judged' && c.findings.length > 0) ||
      (options.verbose && c.status === 'pass'),
  );
  // Under a headline every request got the same answer: one example says it, not forty.
  const shown = summary.headline !== undefined ? explained.slice(0, 1) : explained;
  for (const check of shown) {
    out.push(`  ${label(check.status, p)}  ${p.bold(check.id)}  ${p.dim(`[${check.tier}]`)}`);
    // A hardening warning is a failure the platform will never meet: the same detail and repro.
    const full =
      check.status === 'fail' ||
      check.status === 'not_judged' ||
      (check.tier === 'hardening' && check.findings.some((f) => f.rule !== 'latency')) ||
      options.verbose === true;
    out.push(...details(check, p, full));
    out.push('');
  }
  if (shown.length < explained.length) {
    out.push(
      p.dim(
        `  ${explained.length - shown.length} more checks got the same answer: see the line at the top.`,
      ),
      '',
    );
  }
  const platform = (Object.keys(PLATFORM_CHECKS) as PlatformCheck[])
    .map((check) => `${check} ${label(summary.platform[check], p)}`)
    .join('  ');
  out.push(`Platform checks: ${platform}`);
  out.push(`Tiers: ${TIERS.map((tier) => `${tier} ${label(summary.tiers[tier], p)}`).join('  ')}`);
  if (summary.claim) out.push(claimLine(summary.claim));
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
  for (const advice of summary.advice) out.push(`${p.bold('Next:')} ${advice}`);
  out.push(verdictLine(report, p));
  return `${out.join('\n')}\n`;
}

/**
 * What the sample claim got. A 400 is the handler refusing a member it does not know, which the
 * platform accepts: said so, lest it read as a failure next to PASSED.
 */
function claimLine(claim: NonNullable<ConformanceReport['summary']['claim']>): string {
  const answer = visible(claim.answer);
  if (claim.status === 400)
    return `Your handler refused the sample member with ${answer}: a member who has not done the task reads this (a valid answer)`;
  if (claim.status === 200) return `Your handler accepted the sample member with ${answer}`;
  return `The sample claim got: ${answer}`;
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
  return p.green(
    p.bold(`PASSED: the platform's checks and your members' claims will go through.${warned}`),
  );
}
