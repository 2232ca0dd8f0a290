import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PROBES } from './probes.js';
import { DEFAULT_CONCURRENCY, runConformance } from './run.js';
import {
  type Faults,
  handWrittenEndpoint,
  TEST_API_KEY,
  type Verdict,
} from './test-support/endpoints.js';
import { type Served, serve } from './test-support/serve.js';
import type { ConformanceOptions, ConformanceReport } from './types.js';

// The platform's 10 s limit (5 s slowness threshold): local endpoints answer in a few ms, so no
// verdict here depends on the machine's speed; a test that wants a timeout sets its own limit.
const FAST = { timeoutMs: 10_000, burst: 4, samples: 3 } as const;

const open: Array<{ served: Served; dispose: () => void }> = [];
afterEach(async () => {
  for (const { served, dispose } of open.splice(0)) {
    dispose();
    await served.close();
  }
});

async function endpoint(faults: Faults = {}, verdict?: Verdict): Promise<string> {
  const control = handWrittenEndpoint(faults, verdict);
  const served = await serve(control.listener);
  open.push({ served, dispose: control.dispose });
  return served.url;
}

async function check(
  faults: Faults,
  options: Partial<ConformanceOptions> = {},
  verdict?: Verdict,
): Promise<ConformanceReport> {
  const url = await endpoint(faults, verdict);
  return runConformance({ url, apiKey: TEST_API_KEY, ...FAST, ...options });
}

// The probes' own checks; the member verdicts drawn from them are tested in verdicts.test.ts.
const probesOf = (report: ConformanceReport) => report.checks.filter((c) => c.group !== 'member');

function failing(report: ConformanceReport): string[] {
  return probesOf(report)
    .filter((c) => c.status === 'fail')
    .map((c) => c.id)
    .sort();
}

function rulesOf(report: ConformanceReport, id: string, severity = 'error'): string[] {
  const found = report.checks.find((c) => c.id === id);
  return [
    ...new Set(found?.findings.filter((f) => f.severity === severity).map((f) => f.rule)),
  ].sort();
}

function warning(report: ConformanceReport): string[] {
  return probesOf(report)
    .filter((c) => c.status === 'warn')
    .map((c) => c.id)
    .sort();
}

const statusOf = (report: ConformanceReport, id: string) =>
  report.checks.find((c) => c.id === id)?.status;

describe('runConformance against a correct endpoint', () => {
  it('runs the whole battery and every check passes', async () => {
    const report = await check({});
    expect(probesOf(report).map((c) => c.id)).toEqual(PROBES.map((p) => p.id));
    expect(report.checks.filter((c) => c.status !== 'pass')).toEqual([]);
    expect(report.summary).toMatchObject({ ok: true, failed: 0, warned: 0, skipped: 0 });
    expect(report.summary.platform).toEqual({
      response_time: 'pass',
      message_format: 'pass',
      status_code: 'pass',
    });
  });

  it('counts a business 400 as a pass unless the claim is expected to pass', async () => {
    const notDone: Verdict = () => false;
    const lenient = await check({}, {}, notDone);
    expect(lenient.summary.ok).toBe(true);
    expect(lenient.checks[0]).toMatchObject({ id: 'claim.well-formed', status: 'pass' });
    expect(lenient.checks[0]?.received?.status).toBe(400);

    // The expectation is the member's: the platform's calls themselves all pass.
    const strict = await check({}, { expect: 'pass' }, notDone);
    expect(failing(strict)).toEqual([]);
    expect(statusOf(strict, 'member.answer')).toBe('fail');
    expect(rulesOf(strict, 'member.answer')).toEqual(['expected_status']);
    expect(strict.summary).toMatchObject({ verdict: 'fail', ok: false });
    expect(strict.summary.tiers).toMatchObject({ platform: 'pass', members: 'fail' });
  });

  it('fails the claim when it is expected to fail but is claimed', async () => {
    const report = await check({}, { expect: 'fail' });
    expect(statusOf(report, 'member.answer')).toBe('fail');
    expect(report.summary.verdict).toBe('fail');
  });

  it('sends the member and accounts it is given', async () => {
    const seen: unknown[] = [];
    const report = await check(
      {},
      { member: { userId: 'member-7', accounts: { email: 'seven@example.com' } }, only: ['claim'] },
      (claim) => {
        seen.push(claim);
        return claim.userId === 'member-7';
      },
    );
    expect(probesOf(report).map((c) => c.id)).toEqual(['claim.well-formed']);
    expect(seen[0]).toMatchObject({ userId: 'member-7', accounts: { email: 'seven@example.com' } });
  });

  it('ends NOT JUDGED without an API key, and says what to give', async () => {
    const url = await endpoint({ acceptAnyKey: true });
    const report = await runConformance({ url, ...FAST });
    const auth = report.checks.filter((c) => c.group === 'auth');
    expect(auth.map((c) => c.status)).toEqual(['skip', 'skip']);
    expect(auth[0]?.skipReason).toMatch(/api-key/);
    expect(statusOf(report, 'member.api-key')).toBe('not_judged');
    expect(report.summary).toMatchObject({ verdict: 'not_judged', ok: false, failed: 0 });
    expect(report.summary.advice.join(' ')).toMatch(/--api-key <the task key>.*--no-api-key/);
  });

  it('judges a task without a key when told so (noApiKey), with a warning', async () => {
    const url = await endpoint({ acceptAnyKey: true });
    const report = await runConformance({ url, ...FAST, noApiKey: true });
    expect(report.checks.filter((c) => c.group === 'auth').map((c) => c.skipReason)).toEqual([
      'the task has no API key, so there is no key to drift',
      'the task has no API key, so there is no key to drift',
    ]);
    expect(statusOf(report, 'member.api-key')).toBe('warn');
    expect(report.summary).toMatchObject({ verdict: 'pass', ok: true });
    await expect(runConformance({ url, apiKey: 'k', noApiKey: true })).rejects.toThrow(
      /exclude each other/,
    );
  });

  it('skips nested probes when the member has no such account', async () => {
    const report = await check({}, { member: { accounts: { email: 'a@example.com' } } });
    const skipped = report.checks.filter((c) => c.status === 'skip').map((c) => c.id);
    expect(skipped).toContain('fields.missing.accounts.discord.id');
    expect(skipped).not.toContain('fields.wrong-type.accounts.email');
    expect(report.summary.ok).toBe(true);
  });

  it('shapes every claim for the task when given its identification methods', async () => {
    const seen: Array<{ apiKey: boolean; accounts: unknown }> = [];
    const report = await check({}, { identifications: ['svc-connect', 'email'] }, (claim) => {
      seen.push({ apiKey: true, accounts: claim.accounts });
      return true;
    });
    const platform = report.checks.filter((c) => c.tier === 'platform').map((c) => c.id);
    expect(platform).toEqual(['claim.well-formed', 'auth.missing-key', 'auth.wrong-key']);
    // The other shapes are requests this task never makes: hardening.
    expect(report.checks.find((c) => c.id === 'accounts.absent')?.tier).toBe('hardening');
    expect(report.checks.find((c) => c.id === 'accounts.only.email')?.tier).toBe('hardening');
    expect(seen[0]?.accounts).toEqual({
      'svc-connect': 'questkit-conformance-member',
      email: 'member@example.com',
    });
    expect(report.identifications).toEqual(['svc-connect', 'email']);
  });

  it('sends no accounts when the task has no identification method', async () => {
    const seen: unknown[] = [];
    const report = await check(
      {},
      { identifications: [], only: ['claim', 'accounts.'] },
      (claim) => {
        seen.push(claim);
        return true;
      },
    );
    expect(seen[0]).not.toHaveProperty('accounts');
    expect(report.checks.find((c) => c.id === 'accounts.absent')?.tier).toBe('platform');
    expect(report.checks.find((c) => c.id === 'accounts.only.wallet')?.tier).toBe('hardening');
  });
});

describe('runConformance finds each fault by the right check, in the right tier', () => {
  const cases: Array<{
    name: string;
    faults: Faults;
    ids: string[];
    rules: string[];
    tier: 'platform' | 'hardening';
  }> = [
    {
      name: '401 on a bad key',
      faults: { keyStatus: 401 },
      ids: ['auth.missing-key', 'auth.wrong-key'],
      rules: ['status_code'],
      tier: 'platform',
    },
    {
      name: '500 on missing accounts',
      faults: { crashOnMissingAccounts: true },
      ids: ['accounts.absent'],
      rules: ['status_code'],
      tier: 'platform',
    },
    {
      name: 'HTML error page on bad JSON',
      faults: { htmlOnBadJson: true },
      ids: ['body.empty', 'body.malformed-json'],
      rules: ['message_format'],
      tier: 'hardening',
    },
    {
      name: '405 on GET',
      faults: { methodStatus: 405 },
      ids: ['http.method-get'],
      rules: ['message_format', 'status_code'],
      tier: 'hardening',
    },
    {
      name: 'a crash on unknown fields',
      faults: { crashOnUnknownFields: true },
      ids: ['fields.unknown-extra'],
      rules: ['message_format', 'status_code'],
      tier: 'hardening',
    },
    {
      name: 'a strict schema that rejects unknown fields',
      faults: { rejectUnknownFields: true },
      ids: ['fields.unknown-extra'],
      rules: ['tolerance'],
      tier: 'hardening',
    },
    {
      name: '415 on a content type that is not JSON',
      faults: { contentTypeStatus: 415 },
      ids: ['http.wrong-content-type'],
      rules: ['status_code'],
      tier: 'hardening',
    },
    {
      name: '413 on an oversize body',
      faults: { oversizeStatus: 413 },
      ids: ['body.oversize'],
      rules: ['message_format', 'status_code'],
      tier: 'hardening',
    },
    {
      name: 'a crash when userId is not a string',
      faults: { crashOnWrongTypes: true },
      ids: ['fields.missing.userId', 'fields.wrong-type.userId'],
      rules: ['status_code'],
      tier: 'hardening',
    },
  ];

  it.each(cases)('$name ($tier)', async ({ faults, ids, rules, tier }) => {
    const report = await check(faults);
    for (const id of ids) expect(report.checks.find((c) => c.id === id)?.tier).toBe(tier);
    if (tier === 'platform') {
      expect(failing(report)).toEqual([...ids].sort());
      for (const id of ids) expect(rulesOf(report, id)).toEqual(rules);
      expect(report.summary).toMatchObject({ verdict: 'fail', ok: false });
      expect(warning(report)).toEqual([]);
    } else {
      // Shown with the same findings, as warnings: the exit code follows the platform and members.
      expect(failing(report)).toEqual([]);
      expect(warning(report)).toEqual([...ids].sort());
      for (const id of ids) expect(rulesOf(report, id, 'warning')).toEqual(rules);
      expect(report.summary).toMatchObject({ verdict: 'pass', ok: true });
      expect(report.summary.tiers).toEqual({
        platform: 'pass',
        members: 'pass',
        hardening: 'warn',
      });
      expect(report.summary.platform).toEqual({
        response_time: 'pass',
        message_format: 'pass',
        status_code: 'pass',
      });
    }
  });

  it('fails hardening findings in a strict run', async () => {
    const report = await check({ methodStatus: 405 }, { strict: true });
    expect(failing(report)).toEqual(['http.method-get']);
    expect(report.strict).toBe(true);
    expect(report.summary).toMatchObject({ verdict: 'fail', ok: false });
    expect(report.summary.tiers.hardening).toBe('fail');
    // The platform's own verdict is still about the platform's calls only.
    expect(report.summary.platform.status_code).toBe('pass');
  });

  it('fails a key accepted without checking as a member verdict', async () => {
    const report = await check({ acceptAnyKey: true });
    expect(failing(report)).toEqual([]);
    expect(statusOf(report, 'member.api-key')).toBe('fail');
    expect(report.summary).toMatchObject({ verdict: 'fail' });
    expect(report.summary.tiers).toMatchObject({ platform: 'pass', members: 'fail' });
  });

  it('says which narrower configuration would pass when only some shapes fail', async () => {
    const report = await check({ crashOnMissingAccounts: true });
    expect(report.summary.advice.join(' ')).toMatch(
      /claims for a task configured with email \+ wallet \+ discord \+ twitter \+ svc-connect, or email, or wallet/,
    );
    expect(report.summary.advice.join(' ')).toMatch(/--identifications email,wallet/);
  });

  it.each([
    ['missing', /no "message" field/],
    ['empty', /"message" is empty/],
  ] as const)('a %s message on 400 fails exactly the checks answered with 400', async (kind, why) => {
    const report = await check({ badMessage: kind });
    const answered400 = report.checks.filter((c) => c.received?.status === 400).map((c) => c.id);
    expect(answered400).toEqual(
      expect.arrayContaining(['auth.wrong-key', 'body.malformed-json', 'fields.missing.userId']),
    );
    const tierOf = (id: string) => report.checks.find((c) => c.id === id)?.tier;
    expect(failing(report)).toEqual(answered400.filter((id) => tierOf(id) !== 'hardening').sort());
    expect(failing(report)).toContain('auth.wrong-key');
    for (const id of answered400) {
      const severity = tierOf(id) === 'hardening' ? 'warning' : 'error';
      expect(rulesOf(report, id, severity)).toEqual(['message_format']);
      expect(report.checks.find((c) => c.id === id)?.findings[0]?.message).toMatch(why);
    }
    expect(report.summary.platform).toEqual({
      response_time: 'pass',
      message_format: 'fail',
      status_code: 'pass',
    });
  });

  it('reports a 12 s handler as response_time, with a short limit standing in for 10 s', async () => {
    const report = await check({ delayMs: 12_000 }, { timeoutMs: 300, only: ['claim'] });
    expect(failing(report)).toEqual(['claim.well-formed']);
    expect(rulesOf(report, 'claim.well-formed')).toEqual(['response_time']);
    const claim = report.checks[0]!;
    expect(claim.received?.timedOut).toBe(true);
    expect(claim.findings[0]?.message).toBe('no complete answer within 300 ms');
    expect(report.unreachable).toBeUndefined();
  });

  it('stops a timed-out latency series early and fails the burst in time', async () => {
    const report = await check({ delayMs: 12_000 }, { timeoutMs: 300, only: ['claim', 'load.'] });
    expect(failing(report)).toEqual(['claim.well-formed', 'load.burst']);
    expect(report.checks.find((c) => c.id === 'load.burst')?.statuses).toEqual({ timeout: 4 });
    // Answers never come: the run stops waiting rather than let the series time out one by one.
    const latency = report.checks.find((c) => c.id === 'load.latency')!;
    expect(latency).toMatchObject({
      status: 'skip',
      skipReason: expect.stringMatching(/^not judged: answers never came/),
    });
    expect(report.summary.platform.response_time).toBe('fail');
  });

  it('finds an endpoint that breaks under concurrent claims', async () => {
    const report = await check(
      // Held far longer than a busy machine takes to send the burst's four claims.
      { maxInFlight: 1, holdMs: 2_000 },
      { only: ['claim', 'load.'], samples: 2 },
    );
    expect(failing(report)).toEqual(['load.burst']);
    const burst = report.checks.find((c) => c.id === 'load.burst')!;
    expect(burst.statuses?.['500']).toBeGreaterThan(0);
    expect(burst.findings.find((f) => f.rule === 'status_code')?.message).toMatch(/of 4 claims\)$/);
    expect(burst.received?.status).toBe(500);
  });

  it('warns on a latency series past the slowness threshold, without failing', async () => {
    const report = await check({ delayMs: 60 }, { slowMs: 20, only: ['claim', 'load.latency'] });
    const latency = report.checks.find((c) => c.id === 'load.latency')!;
    expect(latency.status).toBe('warn');
    expect(latency.findings.map((f) => f.rule)).toContain('latency');
    expect(latency.latency?.samples).toBe(3);
    expect(latency.latency?.p50).toBeGreaterThanOrEqual(60);
    expect(latency.latency!.max).toBeGreaterThanOrEqual(latency.latency!.p95);
    expect(report.summary).toMatchObject({ ok: true, failed: 0 });
  });
});

describe('runConformance edge cases', () => {
  it('reports an unreachable endpoint once and skips the rest', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));

    const url = `http://127.0.0.1:${port}/verify`;
    const report = await runConformance({ url, apiKey: TEST_API_KEY, ...FAST });
    expect(report.unreachable).toMatch(/connection refused/);
    // No answer is never a pass, nor a failure of the endpoint's: it is not judged.
    expect(failing(report)).toEqual([]);
    expect(report.checks[0]).toMatchObject({ id: 'claim.well-formed', status: 'not_judged' });
    expect(
      probesOf(report)
        .slice(1)
        .every((c) => c.status === 'skip'),
    ).toBe(true);
    expect(report.summary).toMatchObject({ verdict: 'not_judged', ok: false });
    expect(report.summary.platform).toEqual({
      response_time: 'not_judged',
      message_format: 'not_judged',
      status_code: 'not_judged',
    });
    expect(report.summary.headline).toBe(
      `No answer from ${url}: connection refused (ECONNREFUSED). Is the endpoint running, and are the host, port and scheme right?`,
    );
  });

  it('never puts the API key in the report unless asked', async () => {
    const url = await endpoint({ keyStatus: 401 });
    const redacted = await runConformance({ url, apiKey: TEST_API_KEY, ...FAST });
    expect(JSON.stringify(redacted)).not.toContain(TEST_API_KEY);
    const claim = redacted.checks[0]!;
    expect(claim.sent?.headers['x-api-key']).toBe('REDACTED');
    expect(claim.curl).toContain('"x-api-key: $QUEST_API_KEY"');
    const wrong = redacted.checks.find((c) => c.id === 'auth.wrong-key')!;
    expect(wrong.sent?.headers['x-api-key']).toBe('questkit-conformance-wrong-key');

    const shown = await runConformance({
      url,
      apiKey: TEST_API_KEY,
      ...FAST,
      only: ['claim'],
      showSecrets: true,
    });
    expect(shown.checks[0]?.curl).toContain(`'x-api-key: ${TEST_API_KEY}'`);
  });

  it('reports progress after every check', async () => {
    const url = await endpoint();
    const events: string[] = [];
    const report = await runConformance({
      url,
      ...FAST,
      only: ['claim', 'body.'],
      onProgress: (e) => events.push(`${e.done}/${e.total} ${e.check.id}`),
    });
    // The member verdicts are counted too: the count ends where the summary's total is.
    expect(events).toEqual(report.checks.map((c, i) => `${i + 1}/${report.summary.total} ${c.id}`));
    // The claim and 3 body probes, then the 3 member verdicts.
    expect(events.length).toBe(7);
  });

  it('skips what is left when its signal is aborted', async () => {
    const url = await endpoint();
    const controller = new AbortController();
    const report = await runConformance({
      url,
      apiKey: TEST_API_KEY,
      ...FAST,
      signal: controller.signal,
      onProgress: (e) => {
        if (e.done === 2) controller.abort();
      },
    });
    // Probes already in flight may still finish; none starts after the stop.
    const probes = probesOf(report);
    expect(probes.filter((c) => c.status === 'pass').length).toBeLessThanOrEqual(
      2 + DEFAULT_CONCURRENCY,
    );
    expect(
      probes
        .filter((c) => c.status !== 'pass')
        .every((c) => c.skipReason === 'the run was stopped'),
    ).toBe(true);
    expect(probes.filter((c) => c.status === 'skip').length).toBeGreaterThan(PROBES.length / 2);
  });

  it.each([
    [{ url: 'ftp://example.com' }, /url must be an absolute http\(s\) URL/],
    [{ url: 'not a url' }, /url must be/],
    [{ url: 'http://127.0.0.1/', apiKey: '' }, /apiKey/],
    [{ url: 'http://127.0.0.1/', timeoutMs: 0 }, /timeoutMs/],
    [{ url: 'http://127.0.0.1/', burst: 5000 }, /burst must be 1 to 1000/],
    [
      { url: 'http://127.0.0.1/', connect: { url: 'http://127.0.0.1/c', secret: '' } },
      /connect.secret/,
    ],
  ] as const)('throws a TypeError for invalid options %#', async (options, message) => {
    await expect(runConformance(options as ConformanceOptions)).rejects.toThrow(TypeError);
    await expect(runConformance(options as ConformanceOptions)).rejects.toThrow(message);
  });
});
