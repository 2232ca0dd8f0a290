import { describe, expect, it } from 'vitest';
import type { CheckResult, ConformanceReport } from '../types.js';
import { formatHuman, formatProgress, visible } from './human.js';
import { formatJson } from './json.js';
import { formatJunit, xmlEscape } from './junit.js';

const failing: CheckResult = {
  id: 'auth.wrong-key',
  title: 'A claim with a wrong X-Api-Key is rejected with 400',
  group: 'auth',
  tier: 'platform',
  status: 'fail',
  findings: [
    {
      rule: 'status_code',
      severity: 'error',
      message: 'answered 401; only 200 and 400 are allowed',
    },
  ],
  sent: {
    method: 'POST',
    url: 'http://127.0.0.1:1/verify',
    headers: { 'x-api-key': 'questkit-conformance-wrong-key' },
    body: '{}',
    bodyBytes: 2,
  },
  received: {
    status: 401,
    contentType: 'text/html',
    body: '<b>no</b>\u001b[31m & "quotes"',
    elapsedMs: 3.2,
  },
  curl: "curl -sS -i -m 10 \\\n  -X POST \\\n  'http://127.0.0.1:1/verify'",
  durationMs: 4,
};

const report: ConformanceReport = {
  url: 'http://127.0.0.1:1/verify',
  startedAt: '2025-01-01T00:00:00.000Z',
  timeoutMs: 10_000,
  slowMs: 5_000,
  strict: false,
  checks: [
    {
      id: 'claim.well-formed',
      title: 'A well-formed claim',
      group: 'claim',
      tier: 'platform',
      status: 'pass',
      findings: [],
      durationMs: 12,
    },
    failing,
    {
      id: 'load.latency',
      title: 'A series',
      group: 'load',
      tier: 'members',
      status: 'warn',
      findings: [{ rule: 'latency', severity: 'warning', message: 'p95 is 6000 ms' }],
      latency: { samples: 10, p50: 5500, p95: 6000, max: 6100 },
      statuses: { '200': 10 },
      curl: 'curl hidden-unless-verbose',
      durationMs: 60_000,
    },
    {
      id: 'auth.missing-key',
      title: 'No key',
      group: 'auth',
      tier: 'platform',
      status: 'skip',
      findings: [],
      skipReason: 'no API key given',
      durationMs: 0,
    },
  ],
  summary: {
    total: 4,
    passed: 1,
    warned: 1,
    failed: 1,
    skipped: 1,
    notJudged: 0,
    verdict: 'fail',
    ok: false,
    tiers: { platform: 'fail', members: 'warn', hardening: 'not_run' },
    platform: { response_time: 'pass', message_format: 'pass', status_code: 'fail' },
    advice: [],
    durationMs: 1500,
  },
};

describe('formatHuman', () => {
  const text = formatHuman(report);

  it('prints a row per check, then the details of failures and warnings, then the verdict', () => {
    expect(text).toMatch(/^ {2}PASS {4}12 ms {2}claim\.well-formed {2}A well-formed claim$/m);
    expect(text).toMatch(/^ {2}SKIP {11}auth\.missing-key {3}No key {2}\(no API key given\)$/m);
    expect(text).toMatch(
      /FAIL {2}auth\.wrong-key {2}\[platform\]\n {8}✗ status_code: answered 401; only 200 and 400 are allowed\n {8}sent {2}POST/,
    );
    expect(text).toMatch(/got {3}401 text\/html in 3 ms/);
    expect(text).toMatch(/latency p50 5\.5 s, p95 6\.0 s, max 6\.1 s over 10 claims/);
    expect(text).toContain(
      'Platform checks: response_time PASS  message_format PASS  status_code FAIL',
    );
    expect(text).toContain('4 checks: 1 passed, 1 warned, 1 failed, 1 skipped in 1.5 s');
    expect(text).toContain('Tiers: platform FAIL  members WARN  hardening not run');
    expect(text).toMatch(/FAILED \(platform\): /);
  });

  it('groups the checks by tier, each under its heading', () => {
    const platform = text.indexOf("Platform: the platform's three checks");
    const members = text.indexOf('Members: what members will meet');
    expect(platform).toBeGreaterThan(-1);
    expect(members).toBeGreaterThan(platform);
    expect(text.indexOf('load.latency')).toBeGreaterThan(members);
    expect(text).not.toContain('Hardening:');
  });

  it('shows a hardening warning with the same detail and repro as a failure', () => {
    const hardening: CheckResult = {
      ...failing,
      id: 'http.method-get',
      tier: 'hardening',
      status: 'warn',
      findings: [{ rule: 'status_code', severity: 'warning', message: 'answered 405' }],
      curl: 'curl the-get-repro',
    };
    const out = formatHuman({
      ...report,
      checks: [hardening],
      summary: { ...report.summary, verdict: 'pass', ok: true },
    });
    expect(out).toContain(
      'Hardening: requests the platform never sends (warnings; --strict makes them failures)',
    );
    expect(out).toMatch(
      /WARN {2}http\.method-get {2}\[hardening\]\n {8}! status_code: answered 405\n {8}sent {2}POST/,
    );
    expect(out).toContain('repro curl the-get-repro');
    expect(out).toMatch(/PASSED: /);
  });

  it('ends NOT JUDGED with the headline and what to do next', () => {
    const out = formatHuman({
      ...report,
      summary: {
        ...report.summary,
        verdict: 'not_judged',
        ok: false,
        headline: 'Every request got 404: nothing answers at /verfy. Is the path right?',
        advice: ['No API key was given, so the run cannot tell'],
      },
    });
    expect(out.split('\n')[2]).toBe(
      'Every request got 404: nothing answers at /verfy. Is the path right?',
    );
    expect(out).toContain('Next: No API key was given, so the run cannot tell');
    expect(out).toMatch(/NOT JUDGED: the run could not judge/);
  });

  it('folds the checks skipped because the endpoint is unreachable into one line', () => {
    const skip = (id: string): CheckResult => ({
      id,
      title: id,
      group: 'x',
      tier: 'hardening',
      status: 'skip',
      findings: [],
      skipReason: 'the endpoint is unreachable',
      durationMs: 0,
    });
    const down = formatHuman({
      ...report,
      unreachable: 'connection refused (ECONNREFUSED)',
      checks: [failing, skip('a.one'), skip('a.two')],
      summary: {
        ...report.summary,
        verdict: 'not_judged',
        headline: 'No answer from http://127.0.0.1:1/verify: connection refused (ECONNREFUSED).',
      },
    });
    expect(down).toContain(
      'No answer from http://127.0.0.1:1/verify: connection refused (ECONNREFUSED).',
    );
    expect(down).toContain('NOT JUDGED: the endpoint never answered.');
    expect(down).toMatch(/SKIP {11}2 more checks: the endpoint is unreachable/);
    expect(down).not.toContain('a.one');
  });

  it('keeps the curl line of a warning for --verbose', () => {
    expect(text).not.toContain('hidden-unless-verbose');
    expect(formatHuman(report, { verbose: true })).toContain('hidden-unless-verbose');
  });

  it('never passes control characters from the endpoint to the terminal', () => {
    expect(text).not.toContain('\u001b');
    expect(text).toContain('<b>no</b>\\u001b[31m');
  });

  it('colors only when asked', () => {
    expect(formatHuman(report, { color: true })).toContain('\u001b[31m\u001b[1mFAIL');
  });
});

describe('formatProgress and visible', () => {
  it('pads the counter to the total', () => {
    expect(formatProgress({ done: 3, total: 43, check: failing })).toBe(
      '[ 3/43] FAIL auth.wrong-key',
    );
  });

  it('escapes newlines and cuts long text', () => {
    expect(visible('a\nb\tc', 100)).toBe('a\\nb\\tc');
    expect(visible('abcdef', 3)).toBe('abc…');
  });

  it('escapes bidi marks, embeddings, overrides and isolates', () => {
    expect(visible('a\u202eb\u2066c\u2069\u200f\u061c', 100)).toBe(
      'a\\u202eb\\u2066c\\u2069\\u200f\\u061c',
    );
  });
});

describe('formatJunit', () => {
  const xml = formatJunit(report);

  it('maps pass, fail, warn and skip to JUnit elements', () => {
    expect(xml).toMatch(
      /<testsuites name="questkit conformance" tests="4" failures="1" errors="0" skipped="1" time="1\.500">/,
    );
    expect(xml).toMatch(
      /<testcase classname="questkit\.conformance\.platform\.claim" name="claim\.well-formed: A well-formed claim" time="0\.012"\/>/,
    );
    expect(xml).toMatch(
      /<failure message="answered 401; only 200 and 400 are allowed" type="status_code">error status_code:/,
    );
    expect(xml).toMatch(/<system-out>warning latency: p95 is 6000 ms/);
    expect(xml).toMatch(/<skipped message="no API key given"\/>/);
  });

  it('escapes markup and drops characters XML cannot carry', () => {
    expect(xml).toContain('&lt;b&gt;no&lt;/b&gt;\ufffd[31m &amp; &quot;quotes&quot;');
    expect(xmlEscape("a'b\u0000")).toBe('a&apos;b\ufffd');
  });
});

describe('formatJson', () => {
  it('round-trips the report', () => {
    expect(JSON.parse(formatJson(report))).toEqual(report);
  });
});
