import { escapeText } from '../escape.js';
import type { CheckResult, ConformanceReport } from '../types.js';

// Characters XML 1.0 cannot carry at all, even escaped; an endpoint's answer may contain them.
const NOT_XML = /[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

/**
 * Escapes text for an XML attribute or element. Characters that act on a page or a log (controls,
 * bidi, invisible and tag characters) are first shown as escapes (`\u009b`); line breaks stay.
 */
export function xmlEscape(text: string): string {
  return escapeText(text, { keepLines: true })
    .replace(NOT_XML, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function detailText(check: CheckResult): string {
  const lines = check.findings.map((f) => `${f.severity} ${f.rule}: ${f.message}`);
  if (check.sent) {
    lines.push(
      `sent: ${check.sent.method} ${check.sent.url} ${JSON.stringify(check.sent.headers)}`,
    );
    if (check.sent.body) lines.push(`      ${check.sent.body}`);
  }
  const got = check.received;
  if (got) {
    lines.push(
      `got: ${got.status ?? (got.timedOut ? 'timeout' : `no answer (${got.error ?? 'failed'})`)} ${got.contentType ?? ''} in ${got.elapsedMs} ms`,
    );
    if (got.body) lines.push(`     ${got.body}`);
  }
  if (check.latency) {
    const { p50, p95, max, samples } = check.latency;
    lines.push(`latency: p50 ${p50} ms, p95 ${p95} ms, max ${max} ms over ${samples} claims`);
  }
  if (check.curl) lines.push(`repro:\n${check.curl}`);
  return lines.join('\n');
}

/** How one kind of report names and details its checks in JUnit. */
export interface JunitCases {
  classname(check: CheckResult): string;
  detail(check: CheckResult): string;
}

function testcase(check: CheckResult, cases: JunitCases): string {
  const open = `    <testcase classname="${cases.classname(check)}" name="${xmlEscape(check.id)}: ${xmlEscape(check.title)}" time="${seconds(check.durationMs)}"`;
  if (check.status === 'pass') return `${open}/>`;
  if (check.status === 'skip' || check.status === 'not_judged') {
    const why =
      check.status === 'skip'
        ? (check.skipReason ?? 'skipped')
        : `not judged: ${check.skipReason ?? check.findings[0]?.message ?? 'no answer'}`;
    return `${open}>\n      <skipped message="${xmlEscape(why)}"/>\n    </testcase>`;
  }
  const body = xmlEscape(cases.detail(check));
  if (check.status === 'warn') {
    return `${open}>\n      <system-out>${body}</system-out>\n    </testcase>`;
  }
  const first = check.findings.find((f) => f.severity === 'error') ?? check.findings[0];
  return `${open}>\n      <failure message="${xmlEscape(first?.message ?? 'failed')}" type="${xmlEscape(first?.rule ?? 'failure')}">${body}</failure>\n    </testcase>`;
}

type JunitReport = Pick<ConformanceReport, 'url' | 'startedAt' | 'checks'> & {
  summary: Pick<
    ConformanceReport['summary'],
    'total' | 'failed' | 'skipped' | 'notJudged' | 'durationMs'
  >;
};

/** A JUnit document of a report's checks: one suite, one test case per check. */
export function junitDocument(name: string, report: JunitReport, cases: JunitCases): string {
  const { summary } = report;
  const skipped = summary.skipped + summary.notJudged;
  const counts = `tests="${summary.total}" failures="${summary.failed}" errors="0" skipped="${skipped}" time="${seconds(summary.durationMs)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${name}" ${counts}>`,
    `  <testsuite name="${xmlEscape(report.url)}" ${counts} timestamp="${xmlEscape(report.startedAt)}">`,
    ...report.checks.map((check) => testcase(check, cases)),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/**
 * The report as JUnit XML, one test case per check (a warning passes and carries its findings in
 * `system-out`), for CI systems that show test results.
 *
 * @example
 * writeFileSync('conformance.xml', formatJunit(report));
 */
export function formatJunit(report: ConformanceReport): string {
  return junitDocument('questkit conformance', report, {
    classname: (check) => `questkit.conformance.${xmlEscape(check.tier)}.${xmlEscape(check.group)}`,
    detail: detailText,
  });
}
