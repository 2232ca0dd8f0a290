import { PLATFORM_CHECKS, type PlatformCheck } from '@questkit/core';
import type { CheckResult, CheckStatus, ConformanceReport, ProgressEvent } from '../types.js';
import { type Palette, palette } from './ansi.js';

/** Options of the human reporter. */
export interface HumanFormatOptions {
  /** ANSI colors (for a terminal). Default false. */
  color?: boolean;
  /** Print every detail of warnings, and of passing checks too. Default false. */
  verbose?: boolean;
}

const LABELS: Record<CheckStatus, string> = {
  pass: 'PASS',
  warn: 'WARN',
  fail: 'FAIL',
  skip: 'SKIP',
};
const BODY_PREVIEW = 240;

function label(status: CheckStatus | 'not_judged', p: Palette): string {
  if (status === 'not_judged') return p.dim('not judged');
  const text = LABELS[status];
  if (status === 'pass') return p.green(text);
  if (status === 'warn') return p.yellow(text);
  if (status === 'fail') return p.red(p.bold(text));
  return p.dim(text);
}

/**
 * Shows text from the endpoint on one line with its control characters escaped, so an answer can
 * neither break the layout nor send escape sequences to the terminal.
 */
export function visible(text: string, limit = BODY_PREVIEW): string {
  const cut = text.length > limit ? `${text.slice(0, limit)}…` : text;
  return cut.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) =>
    c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
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
 * The human report: a table of every check, then the details (why, what was sent, what came
 * back, a curl line) of each failing or warning check, then the platform's verdict and counts.
 *
 * @example
 * process.stdout.write(formatHuman(report, { color: process.stdout.isTTY }));
 */
export function formatHuman(report: ConformanceReport, options: HumanFormatOptions = {}): string {
  const p = palette(options.color === true);
  const out: string[] = [];
  out.push(
    `${p.bold('questkit check')} ${report.url}  ${p.dim(`(time limit ${report.timeoutMs} ms, slow over ${report.slowMs} ms)`)}`,
    '',
  );
  if (report.unreachable !== undefined) {
    out.push(`${p.red(p.bold('Cannot reach the endpoint:'))} ${report.unreachable}`, '');
  }
  const idWidth = Math.max(...report.checks.map((c) => c.id.length), 2);
  // Checks skipped because the whole run could not go on say nothing one by one: one line says it.
  const wholesale = new Set(['the endpoint is unreachable', 'the run was stopped']);
  const bulk = report.checks.filter(
    (c) => c.status === 'skip' && wholesale.has(c.skipReason ?? ''),
  );
  for (const check of report.checks) {
    if (bulk.includes(check)) continue;
    const note =
      check.status === 'skip' && check.skipReason ? p.dim(`  (${check.skipReason})`) : '';
    const time = check.status === 'skip' ? '' : formatMs(check.durationMs);
    out.push(
      `  ${label(check.status, p)}  ${p.dim(time.padStart(7))}  ${check.id.padEnd(idWidth)}  ${check.title}${note}`,
    );
  }
  if (bulk.length > 0) {
    const reason = bulk[0]?.skipReason ?? '';
    out.push(
      `  ${label('skip', p)}  ${' '.repeat(7)}  ${p.dim(`${bulk.length} more checks: ${reason}`)}`,
    );
  }
  const explained = report.checks.filter(
    (c) => c.status === 'fail' || c.status === 'warn' || (options.verbose && c.status === 'pass'),
  );
  if (explained.length > 0) {
    out.push('');
    for (const check of explained) {
      out.push(`  ${label(check.status, p)}  ${p.bold(check.id)}`);
      // A warning gets its reasons and the answer; the request and curl line only when verbose.
      out.push(...details(check, p, check.status === 'fail' || options.verbose === true));
      out.push('');
    }
  } else {
    out.push('');
  }
  const verdict = (Object.keys(PLATFORM_CHECKS) as PlatformCheck[])
    .map((check) => {
      const status = report.summary.platform[check];
      return `${check} ${label(status, p)}`;
    })
    .join('  ');
  out.push(`Platform checks: ${verdict}`);
  const { summary } = report;
  if (summary.claim) out.push(`A well-formed claim got: ${visible(summary.claim.answer)}`);
  const counts = [
    p.green(`${summary.passed} passed`),
    summary.warned > 0 ? p.yellow(`${summary.warned} warned`) : `${summary.warned} warned`,
    summary.failed > 0 ? p.red(`${summary.failed} failed`) : `${summary.failed} failed`,
    `${summary.skipped} skipped`,
  ].join(', ');
  out.push(
    `${summary.total} check${summary.total === 1 ? '' : 's'}: ${counts} in ${formatMs(summary.durationMs)}`,
  );
  out.push(
    summary.ok
      ? p.green(p.bold('OK: nothing failed.'))
      : p.red(p.bold('FAILED: fix the checks above before the platform finds them.')),
  );
  return `${out.join('\n')}\n`;
}
