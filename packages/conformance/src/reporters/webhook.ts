import { escapeJson } from '../escape.js';
import type { CheckResult, CheckStatus } from '../types.js';
import { WEBHOOK_CHECKS, type WebhookReport } from '../webhook.js';
import { type Palette, palette } from './ansi.js';
import { visible, visibleProse } from './human.js';
import { junitDocument } from './junit.js';

// The reporters of `questkit check-webhook`: the same three forms as `questkit check` (a table
// for people, JSON, JUnit XML), over a webhook receiver's report.

const LABELS: Record<CheckStatus, string> = {
  pass: 'PASS',
  warn: 'WARN',
  fail: 'FAIL',
  skip: 'SKIP',
  not_judged: 'NOT JUDGED',
};

function label(status: CheckStatus, p: Palette): string {
  const text = LABELS[status];
  if (status === 'pass') return p.green(text);
  if (status === 'fail') return p.red(p.bold(text));
  if (status === 'warn' || status === 'not_judged') return p.yellow(text);
  return p.dim(text);
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

function got(check: CheckResult): string {
  const answer = check.received;
  if (!answer) return '';
  if (answer.status === undefined) {
    return answer.timedOut
      ? 'no answer (timed out)'
      : `no answer: ${visible(answer.error ?? 'failed', 400)}`;
  }
  const type = answer.contentType ? ` ${visible(answer.contentType, 80)}` : '';
  return `${answer.status}${type} in ${formatMs(answer.elapsedMs)}`;
}

function details(check: CheckResult, p: Palette, verbose: boolean): string[] {
  const indent = '        ';
  const lines = check.findings.map(
    (f) =>
      `${indent}${f.severity === 'error' ? p.red('✗') : p.yellow('!')} ${visibleProse(f.message, 1200, verbose)}`,
  );
  if (check.received) lines.push(`${indent}${p.dim('got')}   ${got(check)}`);
  if (check.received?.body) {
    lines.push(`${indent}      ${p.dim(visible(check.received.body))}`);
  }
  if (check.sent && verbose)
    lines.push(`${indent}${p.dim('sent')}  ${visible(check.sent.body ?? '', 600)}`);
  if (check.curl) {
    lines.push(`${indent}${p.dim('repro')} ${check.curl.split('\n').join(`\n${indent}      `)}`);
  }
  return lines;
}

/**
 * The human report of a webhook receiver check: the headline when every delivery got the same
 * wrong answer, then each failure with its reason, the receiver's answer and a curl line, one
 * line per warning (the full block with `verbose`), the list of checks, and the verdict.
 *
 * @example
 * process.stdout.write(formatWebhookHuman(report, { color: process.stdout.isTTY }));
 */
export function formatWebhookHuman(
  report: WebhookReport,
  options: { color?: boolean; verbose?: boolean } = {},
): string {
  const p = palette(options.color === true);
  const verbose = options.verbose === true;
  const { summary } = report;
  const out: string[] = [
    `${p.bold('questkit check-webhook')} ${visible(report.url, 600)}  ${p.dim(`(exactly 200 within ${report.timeoutMs} ms, at most ${report.maxAnswerBytes} bytes of body)`)}`,
    '',
  ];
  if (summary.headline !== undefined)
    out.push(p.bold(visibleProse(summary.headline, 1200, verbose)), '');
  const failed = report.checks.filter((c) => c.status === 'fail' || c.status === 'not_judged');
  // Under a headline every delivery got the same answer: one example says it.
  const shown = summary.headline !== undefined ? failed.slice(0, 1) : failed;
  for (const check of shown) {
    out.push(`  ${label(check.status, p)}  ${p.bold(check.id)}`, ...details(check, p, verbose), '');
  }
  for (const check of report.checks.filter((c) => c.status === 'warn')) {
    if (verbose)
      out.push(`  ${label('warn', p)}  ${p.bold(check.id)}`, ...details(check, p, true), '');
    else
      out.push(
        `  ${label('warn', p)}  ${check.id}: ${visibleProse(check.findings[0]?.message ?? '', 300)}`,
      );
  }
  if (!verbose && report.checks.some((c) => c.status === 'warn')) out.push('');
  const width = Math.max(...report.checks.map((c) => c.id.length), 2);
  for (const check of report.checks) {
    const reason = check.skipReason
      ? p.dim(`  (${visibleProse(check.skipReason, 600, verbose)})`)
      : '';
    const time = check.status === 'skip' ? '' : formatMs(check.durationMs);
    out.push(
      `  ${label(check.status, p)}  ${p.dim(time.padStart(7))}  ${check.id.padEnd(width)}  ${check.title}${reason}`,
    );
  }
  out.push('');
  const counts = [
    `${summary.passed} passed`,
    `${summary.warned} warned`,
    `${summary.failed} failed`,
    ...(summary.notJudged > 0 ? [`${summary.notJudged} not judged`] : []),
    `${summary.skipped} skipped`,
  ].join(', ');
  out.push(`${summary.total} checks: ${counts} in ${formatMs(summary.durationMs)}`);
  for (const advice of summary.advice) out.push(`${p.bold('Next:')} ${visible(advice, 1200)}`);
  out.push(verdictLine(report, p));
  return `${out.join('\n')}\n`;
}

/** The last line: the verdict, naming what failed and what the platform does about that. */
function verdictLine(report: WebhookReport, p: Palette): string {
  const { verdict } = report.summary;
  if (verdict === 'not_judged') {
    return p.yellow(p.bold('NOT JUDGED: some deliveries got no answer to judge (see above).'));
  }
  if (verdict === 'pass') return p.green(p.bold("PASSED: the platform's deliveries will succeed."));
  const failed = report.checks.filter((c) => c.status === 'fail');
  const deliveries = failed.filter((c) => c.id !== WEBHOOK_CHECKS.wrongSecret.id);
  const sentences: string[] = [];
  if (deliveries.length > 0) {
    const which =
      deliveries.length === 1
        ? `${deliveries[0]!.id} failed`
        : `${deliveries.length} deliveries failed`;
    sentences.push(
      `${which}: the platform counts ${deliveries.length === 1 ? 'it' : 'them'} as failed, retries for days, and may disable the webhook.`,
    );
  }
  if (failed.some((c) => c.id === WEBHOOK_CHECKS.wrongSecret.id)) {
    sentences.push(
      `${WEBHOOK_CHECKS.wrongSecret.id} failed: the receiver takes a delivery with a wrong secret, so anyone who finds its URL can send it events the platform never sent.${deliveries.length === 0 ? " The platform's own deliveries succeed." : ''}`,
    );
  }
  return p.red(p.bold(`FAILED: ${sentences.join(' ')}`));
}

/**
 * The webhook report as indented JSON: the object `checkWebhookReceiver` returns, the secret
 * already redacted unless the run was asked to show it.
 *
 * @example
 * process.stdout.write(formatWebhookJson(report));
 */
export function formatWebhookJson(report: WebhookReport): string {
  return `${escapeJson(JSON.stringify(report, null, 2))}\n`;
}

/** A check's findings, answer and repro line, for JUnit. */
function detailText(check: CheckResult): string {
  return [
    ...check.findings.map((f) => `${f.severity}: ${f.message}`),
    `got: ${got(check)}`,
    ...(check.received?.body ? [`     ${check.received.body}`] : []),
    ...(check.curl ? [`repro:\n${check.curl}`] : []),
  ].join('\n');
}

/**
 * The webhook report as JUnit XML, one test case per check, for CI systems that show test
 * results.
 *
 * @example
 * writeFileSync('webhook.xml', formatWebhookJunit(report));
 */
export function formatWebhookJunit(report: WebhookReport): string {
  return junitDocument('questkit check-webhook', report, {
    classname: () => 'questkit.webhook',
    detail: detailText,
  });
}
