import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createVerifier, fail, ok, type VerifierOptions } from '@questkit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { assertConformant, ConformanceError } from './assert.js';
import { runConformance } from './run.js';
import { readAll, type Served, serve } from './test-support/serve.js';
import type { ConformanceReport } from './types.js';

// Real endpoints on loopback, each broken the way members would feel it, and what the battery
// says of each. The platform's 10 s limit: a busy machine's slow answer is no verdict; a test that
// wants a timeout sets its own limit.
const KEY = 'verdict-test-key';
const FAST = { timeoutMs: 10_000, burst: 2, samples: 2 } as const;

const servers: Served[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function questkitEndpoint(options: Partial<VerifierOptions<never>>): Promise<string> {
  const verifier = createVerifier({
    apiKey: KEY,
    verify: () => ok(),
    onError: () => {},
    ...options,
  } as VerifierOptions<never>);
  const served = await serve(verifier.node);
  servers.push(served);
  return served.url;
}

const verdict = (report: ConformanceReport, id: string) =>
  report.checks.find((check) => check.id === id);
const sentence = (report: ConformanceReport, id: string) =>
  verdict(report, id)
    ?.findings.map((finding) => finding.message)
    .join(' ') ?? '';

describe('verdicts about what the member will see', () => {
  // One answer to every claim, whatever its key: a correct endpoint whose probe member does not
  // qualify, or one whose key is wrong. `body` pads it past the report's display copy.
  async function sameRefusal(message: string): Promise<string> {
    const served = await serve(async (req, res) => {
      await readAll(req);
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ message }));
    });
    servers.push(served);
    return served.url;
  }

  it('does not judge the key without a claim with a wrong or missing key to compare', async () => {
    const url = await questkitEndpoint({});
    const claimOnly = await runConformance({ url, apiKey: KEY, only: ['body'], ...FAST });
    expect(verdict(claimOnly, 'member.api-key')).toMatchObject({
      status: 'skip',
      skipReason: expect.stringMatching(/^no claim with a wrong or missing key was sent/),
    });
    expect(verdict(claimOnly, 'member.answer')?.status).toBe('pass');
  });

  it('holds the well-formed claim to --expect-pass and --expect-fail', async () => {
    const refusing = await questkitEndpoint({ verify: () => fail('Not yet complete.') });
    const expectedPass = await runConformance({
      url: refusing,
      apiKey: KEY,
      expect: 'pass',
      ...FAST,
    });
    expect(verdict(expectedPass, 'member.answer')?.findings).toEqual([
      {
        rule: 'expected_status',
        severity: 'error',
        message: 'answered 400 but the claim is expected to pass (200)',
      },
    ]);
    const passing = await questkitEndpoint({});
    const expectedFail = await runConformance({
      url: passing,
      apiKey: KEY,
      expect: 'fail',
      ...FAST,
    });
    expect(verdict(expectedFail, 'member.answer')?.findings).toEqual([
      {
        rule: 'expected_status',
        severity: 'error',
        message: 'answered 200 but the claim is expected to fail (400)',
      },
    ]);
    // As expected: nothing to say.
    const asExpected = await runConformance({
      url: refusing,
      apiKey: KEY,
      expect: 'fail',
      ...FAST,
    });
    expect(verdict(asExpected, 'member.answer')?.findings).toEqual([]);
  });

  it('does not judge the key from three identical refusals, says how to, and passes the run', async () => {
    const report = await runConformance({
      url: await sameRefusal('Not yet complete.'),
      apiKey: KEY,
      ...FAST,
    });
    expect(verdict(report, 'member.api-key')).toMatchObject({
      status: 'not_judged',
      skipReason: expect.stringMatching(
        /all got the same answer, 400 "Not yet complete\.": identical answers cannot tell .*--accounts .*--expect-pass/,
      ),
    });
    expect(report.summary).toMatchObject({ verdict: 'pass', ok: true });
  });

  it('judges a key from the whole answer, however long', async () => {
    const long = `Invalid API key. ${'x'.repeat(2000)}`;
    const served = await serve(async (req, res) => {
      await readAll(req);
      const message = req.headers['x-api-key'] === KEY ? 'Not yet.' : long;
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ message }));
    });
    servers.push(served);
    const report = await runConformance({ url: served.url, apiKey: KEY, ...FAST });
    expect(verdict(report, 'auth.wrong-key')?.received?.body?.length).toBeLessThan(1100);
    expect(verdict(report, 'auth.wrong-key')?.received?.message).toBe(long);
    expect(verdict(report, 'member.api-key')?.status).toBe('pass');
  });

  it('warns on a 200 whose JSON says no: the platform credits the member', async () => {
    const served = await serve(async (req, res) => {
      await readAll(req);
      const ok = req.headers['x-api-key'] === KEY;
      res
        .writeHead(ok ? 200 : 400, { 'content-type': 'application/json' })
        .end(
          JSON.stringify(ok ? { success: false, message: 'Not yet.' } : { message: 'Bad key.' }),
        );
    });
    servers.push(served);
    const report = await runConformance({ url: served.url, apiKey: KEY, ...FAST });
    expect(verdict(report, 'member.answer')?.status).toBe('warn');
    expect(sentence(report, 'member.answer')).toMatch(
      /^a well-formed claim got 200 with "success": false in its JSON: the platform reads only the status, so it credits the member/,
    );
    expect(report.summary.ok).toBe(true);
  });

  it('gives no --identifications advice when only the drifted-key claims failed', async () => {
    const served = await serve(async (req, res) => {
      await readAll(req);
      const ok = req.headers['x-api-key'] === KEY;
      res
        .writeHead(ok ? 400 : 401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ message: ok ? 'Not yet.' : 'Unauthorized' }));
    });
    servers.push(served);
    const report = await runConformance({ url: served.url, apiKey: KEY, ...FAST });
    expect(report.summary.verdict).toBe('fail');
    expect(sentence(report, 'auth.wrong-key')).toMatch(
      /^answered 401; only 200 and 400 are allowed\. The platform sends a claim with another key \(or none\) whenever the task's key and your endpoint's differ/,
    );
    expect(report.summary.advice.join(' ')).not.toMatch(/--identifications/);
  });

  it('fails an endpoint that refuses the key given, whatever the platform checks say', async () => {
    const url = await questkitEndpoint({ apiKey: 'another-key' });
    const report = await runConformance({ url, apiKey: KEY, ...FAST });
    expect(report.summary.platform).toEqual({
      response_time: 'pass',
      message_format: 'pass',
      status_code: 'pass',
    });
    expect(verdict(report, 'member.api-key')?.status).toBe('fail');
    expect(sentence(report, 'member.api-key')).toMatch(/^your endpoint refuses the key you gave/);
    expect(report.summary.ok).toBe(false);
    expect(report.summary.claim?.answer).toMatch(
      /^400 "The verification endpoint did not accept the API key/,
    );
  });

  it('fails an endpoint that does not check the key at all', async () => {
    const served = await serve(async (req, res) => {
      await readAll(req);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"message":"Done."}');
    });
    servers.push(served);
    const report = await runConformance({ url: served.url, apiKey: KEY, ...FAST });
    expect(sentence(report, 'member.api-key')).toMatch(
      /^it does not check the key: .* A direct call awards nothing on the platform, but anyone who finds the URL can call it, learn whether a member qualifies/,
    );
    expect(report.summary.ok).toBe(false);
  });

  it('says the key could not be judged without --api-key, rather than OK', async () => {
    const url = await questkitEndpoint({ apiKey: 'another-key' });
    const report = await runConformance({ url, ...FAST });
    expect(verdict(report, 'member.api-key')).toMatchObject({
      status: 'not_judged',
      skipReason: expect.stringMatching(/^no API key was given: run with --api-key/),
    });
    expect(report.summary.verdict).toBe('not_judged');
  });

  it('fails an endpoint whose handler throws on every claim', async () => {
    const url = await questkitEndpoint({
      verify: () => {
        throw new Error('db down');
      },
    });
    const report = await runConformance({ url, apiKey: KEY, ...FAST });
    expect(report.summary.platform.status_code).toBe('pass');
    expect(verdict(report, 'member.answer')?.status).toBe('fail');
    expect(sentence(report, 'member.answer')).toMatch(/your verify handler throws/);
    expect(report.summary.ok).toBe(false);
  });

  it('fails an endpoint whose every claim ends at its deadline', async () => {
    const url = await questkitEndpoint({ timeoutMs: 100, verify: () => new Promise(() => {}) });
    const report = await runConformance({ url, apiKey: KEY, ...FAST });
    expect(sentence(report, 'member.answer')).toMatch(/^every claim ends at the deadline/);
    expect(report.summary.ok).toBe(false);
  });

  it('fails a claim routed to no quest when the quest was named, and warns when it was not', async () => {
    const url = await questkitEndpoint({ verify: undefined, quests: { 'quest-a': () => ok() } });
    const named = await runConformance({
      url,
      apiKey: KEY,
      member: { questId: 'quest-b' },
      ...FAST,
    });
    expect(verdict(named, 'member.answer')?.status).toBe('fail');
    expect(sentence(named, 'member.answer')).toMatch(/reached no quest handler.*not routed/);
    const unnamed = await runConformance({ url, apiKey: KEY, ...FAST });
    expect(verdict(unnamed, 'member.answer')?.status).toBe('warn');
    expect(sentence(unnamed, 'member.answer')).toMatch(/--quest-id/);
    const routed = await runConformance({
      url,
      apiKey: KEY,
      member: { questId: 'quest-a' },
      ...FAST,
    });
    expect(verdict(routed, 'member.answer')?.status).toBe('pass');
  });

  it('passes a correct endpoint, failing claims included', async () => {
    const url = await questkitEndpoint({ verify: () => fail('Subscribe first.') });
    const report = await runConformance({ url, apiKey: KEY, ...FAST });
    expect(report.checks.filter((check) => check.group === 'member').map((c) => c.status)).toEqual([
      'pass',
      'pass',
      'pass',
    ]);
    expect(report.summary).toMatchObject({
      ok: true,
      claim: { status: 400, message: 'Subscribe first.' },
    });
  });
});

describe('bounded time', () => {
  it('judges an endpoint that answers slowly within its budget, and says what it had no time for', async () => {
    // Each answer takes 0.6 of the time limit: the run still ends by 3 limits.
    const served = await serve(async (req, res) => {
      await readAll(req);
      await new Promise((resolve) => setTimeout(resolve, 600));
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"No."}');
    });
    servers.push(served);
    const report = await runConformance({ url: served.url, apiKey: KEY, timeoutMs: 1000 });
    expect(report.summary.durationMs).toBeLessThan(3000 + 500);
    const cut = report.checks.filter((check) =>
      check.skipReason?.startsWith('not judged: answers take'),
    );
    expect(cut.length).toBeGreaterThan(0);
    expect(report.checks.some((check) => check.status === 'pass' && cut.includes(check))).toBe(
      false,
    );
  });

  it('keeps at most `concurrency` probes in flight, outside the burst', async () => {
    let inFlight = 0;
    let most = 0;
    const served = await serve(async (req, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await readAll(req);
      await new Promise((resolve) => setTimeout(resolve, 30));
      inFlight--;
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"No."}');
    });
    servers.push(served);
    await runConformance({
      url: served.url,
      apiKey: KEY,
      concurrency: 3,
      only: ['auth', 'body', 'fields', 'accounts', 'http'],
      ...FAST,
    });
    expect(most).toBe(3);
  });

  it('keeps running other probes while one is stuck', async () => {
    const answeredWhileStuck: string[] = [];
    let stuck = false;
    const served = await serve(async (req, res) => {
      if (req.headers['x-api-key'] === undefined) {
        stuck = true;
        return; // never answered
      }
      const body = (await readAll(req)).toString();
      if (stuck) answeredWhileStuck.push(body.slice(0, 20));
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"No."}');
    });
    servers.push(served);
    // The stuck probe's 3 s give the other slot time for many probes, even on a busy machine.
    const report = await runConformance({
      url: served.url,
      apiKey: KEY,
      concurrency: 2,
      ...FAST,
      timeoutMs: 3_000,
    });
    expect(verdict(report, 'auth.missing-key')?.received?.timedOut).toBe(true);
    expect(answeredWhileStuck.length).toBeGreaterThan(0);
  });

  it('stops waiting on an endpoint that never answers: most probes are not judged, none passes', async () => {
    let received = 0;
    const served = await serve(() => {
      received++;
    });
    servers.push(served);
    const report = await runConformance({
      url: served.url,
      apiKey: KEY,
      timeoutMs: 200,
      concurrency: 4,
    });
    const probes = report.checks.filter((check) => check.group !== 'member');
    const notJudged = probes.filter((check) =>
      check.skipReason?.startsWith('not judged: answers never came'),
    );
    // The claim, then at most two waves of `concurrency` probes, before the budget runs out.
    expect(received).toBeLessThanOrEqual(1 + 2 * 4);
    expect(notJudged.length).toBeGreaterThan(probes.length / 2);
    expect(probes.some((check) => check.status === 'pass')).toBe(false);
    expect(report.summary.platform).toEqual({
      response_time: 'fail',
      message_format: 'not_judged',
      status_code: 'not_judged',
    });
    expect(report.summary.ok).toBe(false);
  });

  it('stops at the first failure with failFast', async () => {
    const served = await serve(async (req, res) => {
      await readAll(req);
      res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>oops</h1>');
    });
    servers.push(served);
    const report = await runConformance({ url: served.url, apiKey: KEY, failFast: true, ...FAST });
    const probes = report.checks.filter((check) => check.group !== 'member');
    expect(probes[0]).toMatchObject({ id: 'claim.well-formed', status: 'fail' });
    const stopped = probes.filter((check) => check.skipReason?.includes('--fail-fast'));
    expect(stopped.length).toBeGreaterThan(probes.length / 2);
  });
});

describe('assertConformant', () => {
  it('passes a correct fetch handler in-process, with no port', async () => {
    const verifier = createVerifier({ apiKey: KEY, verify: () => ok('Done.') });
    const report = await assertConformant(verifier.fetch, { apiKey: KEY, ...FAST });
    expect(report.summary).toMatchObject({ ok: true, claim: { status: 200, message: 'Done.' } });
  });

  it('throws an assertion error listing each failed check with its repro', async () => {
    const url = await questkitEndpoint({ apiKey: 'another-key' });
    const error = await assertConformant(url, { apiKey: KEY, ...FAST }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ConformanceError);
    expect((error as Error).name).toBe('AssertionError');
    expect((error as Error).message).toMatch(
      /conformance checks? failed for http:\/\/127\.0\.0\.1/,
    );
    expect((error as Error).message).toMatch(
      /member\.api-key:.*\n\s+your endpoint refuses the key you gave/,
    );
    expect((error as ConformanceError).report.summary.ok).toBe(false);
  });

  it('works from node:test', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'questkit-node-test-'));
    try {
      const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));
      const core = fileURLToPath(import.meta.resolve('@questkit/core'));
      await writeFile(
        join(dir, 'conformant.test.mjs'),
        `import test from 'node:test';
import { assertConformant } from ${JSON.stringify(entry)};
import { createVerifier, ok } from ${JSON.stringify(core)};
test('passes', async () => {
  await assertConformant(createVerifier({ apiKey: 'k', verify: () => ok() }).fetch, { apiKey: 'k', burst: 2, samples: 2 });
});
test('fails', async (t) => {
  await t.assert.rejects(assertConformant(createVerifier({ apiKey: 'other', verify: () => ok() }).fetch, { apiKey: 'k' }), /refuses the key you gave/);
});
`,
      );
      const { stdout } = await promisify(execFile)(
        process.execPath,
        // TAP by name: Node 23+ prints the spec reporter's output by default, even to a pipe.
        ['--test', '--test-reporter=tap', join(dir, 'conformant.test.mjs')],
        {
          timeout: 60_000,
        },
      );
      expect(stdout).toMatch(/# pass 2/);
      expect(stdout).toMatch(/# fail 0/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
