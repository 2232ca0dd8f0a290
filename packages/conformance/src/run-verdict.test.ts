import { createVerifier, ok } from '@questkit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { runConformance } from './run.js';
import { type Served, serve } from './test-support/serve.js';
import type { ConformanceReport } from './types.js';

// Runs that judge less than everything: the well-formed claim not sent, stopped before it was
// sent, or unanswered, and a check outside the exit code's tiers that judged nothing. What the
// member verdicts and the run's verdict (the closing line, the exit code) say of each.
const KEY = 'run-verdict-test-key';
const FAST = { timeoutMs: 10_000, burst: 2, samples: 2 } as const;

const servers: Served[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const members = (report: ConformanceReport) =>
  report.checks
    .filter((check) => check.group === 'member')
    .map(({ id, status, skipReason }) => ({ id, status, skipReason }));

const unjudged = (status: string, skipReason: string) =>
  ['member.api-key', 'member.answer', 'member.stays-up'].map((id) => ({ id, status, skipReason }));

/** A correct questkit endpoint, except that a GET's connection is closed without an answer. */
async function closesOnGet(): Promise<string> {
  const verifier = createVerifier({ apiKey: KEY, verify: () => ok() });
  const served = await serve((req, res) => {
    if (req.method === 'GET') req.socket.destroy();
    else verifier.node(req, res);
  });
  servers.push(served);
  return served.url;
}

describe('member verdicts when the well-formed claim judged nothing', () => {
  it('skips them, with the reason, when the run was stopped before the claim was sent', async () => {
    const report = await runConformance({
      url: await closesOnGet(),
      apiKey: KEY,
      signal: AbortSignal.abort(),
      ...FAST,
    });
    expect(report.checks.find((check) => check.id === 'claim.well-formed')).toMatchObject({
      status: 'skip',
      skipReason: 'the run was stopped',
    });
    expect(members(report)).toEqual(unjudged('skip', 'the run was stopped'));
    // Nothing was judged: the run has not passed.
    expect(report.summary.verdict).toBe('not_judged');
  });

  it('skips them when no claim was sent at all (only connect checks, without connect)', async () => {
    const report = await runConformance({
      url: await closesOnGet(),
      apiKey: KEY,
      only: ['connect.'],
      ...FAST,
    });
    expect(members(report)).toEqual(unjudged('skip', 'the well-formed claim was not sent'));
    expect(report.summary.verdict).toBe('not_judged');
  });

  it('does not judge them when the claim got no answer', async () => {
    const served = await serve((req) => req.socket.destroy());
    servers.push(served);
    const report = await runConformance({ url: served.url, apiKey: KEY, ...FAST });
    expect(members(report)).toEqual(unjudged('not_judged', 'the well-formed claim got no answer'));
    expect(report.summary.verdict).toBe('not_judged');
  });
});

describe("the run's verdict", () => {
  it('passes when only a hardening check judged nothing: it decides no exit code', async () => {
    const report = await runConformance({
      url: await closesOnGet(),
      apiKey: KEY,
      only: ['auth.', 'http.method-get'],
      ...FAST,
    });
    expect(report.checks.find((check) => check.id === 'http.method-get')).toMatchObject({
      tier: 'hardening',
      status: 'not_judged',
    });
    expect(report.summary.verdict).toBe('pass');
  });

  it('passes a run whose judged checks only warned: a warning is judged', async () => {
    // Redirects refused with 401 rather than the reference flow's 400: a warning each.
    const served = await serve((_req, res) => {
      res.writeHead(401, { 'content-type': 'text/plain' }).end('No.');
    }, '/connect');
    servers.push(served);
    const report = await runConformance({
      url: served.url,
      apiKey: KEY,
      connect: { url: served.url, secret: 'run-verdict-connect-secret' },
      only: ['connect.tampered-redirect', 'connect.unsigned-redirect'],
      ...FAST,
    });
    const judged = report.checks.filter((check) => check.status !== 'skip');
    expect(judged.map(({ id, status }) => ({ id, status }))).toEqual([
      { id: 'connect.tampered-redirect', status: 'warn' },
      { id: 'connect.unsigned-redirect', status: 'warn' },
    ]);
    expect(report.summary.verdict).toBe('pass');
  });
});
