import { describe, expect, it } from 'vitest';
import type { CheckResult, ConformanceReport } from '../types.js';
import { formatHuman, formatProgress, visible, visibleProse } from './human.js';
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

  it('leads with each failure in full, then one line per warning, then the verdict', () => {
    const lines = text.split('\n');
    expect(lines[2]).toBe(
      '  FAIL  auth.wrong-key  [platform]  A claim with a wrong X-Api-Key is rejected with 400',
    );
    expect(text).toMatch(
      /FAIL {2}auth\.wrong-key {2}\[platform\].*\n {8}✗ status_code: answered 401; only 200 and 400 are allowed\n {8}sent {2}POST/,
    );
    expect(text).toMatch(/got {3}401 text\/html in 3 ms/);
    expect(text).toMatch(/^ {2}WARN {2}load\.latency {2}\[members\] {2}latency: p95 is 6000 ms$/m);
    expect(text).toMatch(/^ {2}SKIP {2}auth\.missing-key: no API key given$/m);
    expect(text.indexOf('auth.wrong-key')).toBeLessThan(text.indexOf('load.latency'));
    expect(text).toContain(
      'Platform checks: response_time PASS  message_format PASS  status_code FAIL',
    );
    expect(text).toContain('4 checks: 1 passed, 1 warned, 1 failed, 1 skipped in 1.5 s');
    expect(text).toContain('Tiers: platform FAIL  members WARN  hardening not run');
    expect(text).toMatch(/FAILED \(platform\): /);
  });

  it('lists each check once: a pass is counted, and shown in full only under --verbose', () => {
    expect(text).not.toContain('claim.well-formed');
    const full = formatHuman(report, { verbose: true });
    expect(full.match(/claim\.well-formed/g)).toHaveLength(1);
    expect(full).toMatch(
      /^ {2}PASS {2}claim\.well-formed {2}\[platform\] {2}A well-formed claim$/m,
    );
    expect(full.match(/auth\.wrong-key/g)).toHaveLength(1);
  });

  it('shows a hardening warning in one line, and in full with its repro under --verbose', () => {
    const hardening: CheckResult = {
      ...failing,
      id: 'http.method-get',
      tier: 'hardening',
      status: 'warn',
      findings: [{ rule: 'status_code', severity: 'warning', message: 'answered 405' }],
      curl: 'curl the-get-repro',
    };
    const warned = {
      ...report,
      checks: [hardening],
      summary: { ...report.summary, verdict: 'pass' as const, ok: true },
    };
    const out = formatHuman(warned);
    expect(out).toMatch(
      /^ {2}WARN {2}http\.method-get {2}\[hardening\] {2}status_code: answered 405$/m,
    );
    expect(out).not.toContain('curl the-get-repro');
    expect(out).toContain('--strict makes them failures');
    const full = formatHuman(warned, { verbose: true });
    expect(full).toMatch(
      /WARN {2}http\.method-get {2}\[hardening\].*\n {8}! status_code: answered 405\n {8}sent {2}POST/,
    );
    expect(full).toContain('repro curl the-get-repro');
    expect(out).toMatch(/PASSED: /);
  });

  it('ends NOT JUDGED with the headline and what to do next', () => {
    const out = formatHuman({
      ...report,
      summary: {
        ...report.summary,
        verdict: 'not_judged',
        ok: false,
        headline: 'Every claim got 404: nothing answers a POST at /verfy. Is the path right?',
        advice: ['No API key was given, so the run cannot tell'],
      },
    });
    expect(out.split('\n')[2]).toBe(
      'Every claim got 404: nothing answers a POST at /verfy. Is the path right?',
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
    expect(down).toMatch(/^ {2}SKIP {2}a\.one, a\.two: the endpoint is unreachable$/m);
    const many = formatHuman({
      ...report,
      checks: [failing, ...['a', 'b', 'c', 'd'].map((id) => skip(`a.${id}`))],
    });
    expect(many).toMatch(/^ {2}SKIP {2}4 checks: the endpoint is unreachable$/m);
    expect(many).not.toContain('a.a,');
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

  it('escapes markup and shows control characters as escapes, never raw', () => {
    expect(xml).toContain('&lt;b&gt;no&lt;/b&gt;\\u001b[31m &amp; &quot;quotes&quot;');
    expect(xmlEscape("a'b\u0000\u0085\u202e\u{e0041}\n")).toBe(
      'a&apos;b\\u0000\\u0085\\u202e\\u{e0041}\n',
    );
    expect(xmlEscape('\uffff')).toBe('\ufffd');
  });
});

describe('formatJson', () => {
  it('round-trips the report', () => {
    expect(JSON.parse(formatJson(report))).toEqual(report);
  });
});

describe('visibleProse', () => {
  const text =
    'First sentence here. Second one is longer than that. Third (with a quote." Last one.';

  it('keeps the whole sentences that fit, never a word or a sentence cut', () => {
    expect(visibleProse(text, 60)).toBe(
      'First sentence here. Second one is longer than that. (more with --verbose)',
    );
    expect(visibleProse(text, 25)).toBe('First sentence here. (more with --verbose)');
  });

  it('keeps a first sentence longer than the limit whole', () => {
    expect(visibleProse(text, 5)).toBe('First sentence here. (more with --verbose)');
    expect(visibleProse('one long sentence without an end', 5)).toBe(
      'one long sentence without an end',
    );
  });

  it('keeps everything with --verbose, and escapes as visible does', () => {
    expect(visibleProse(text, 5, true)).toBe(text);
    expect(visibleProse('a\nb. c', 100)).toBe('a\\nb. c');
  });
});
