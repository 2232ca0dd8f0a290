import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { formatHuman } from './reporters/human.js';
import { runConformance } from './run.js';
import { handWrittenEndpoint, TEST_API_KEY } from './test-support/endpoints.js';
import { type Served, serve } from './test-support/serve.js';
import type { ConformanceReport } from './types.js';

const SECRET = 'community-secret-0001';
const MEMBER = 'member-42';

interface ConnectFaults {
  /** Redirects without checking the signature. */
  noSignatureCheck?: boolean;
  /** Shows a login page (redirect to /login) instead of redirecting straight back. */
  loginFirst?: boolean;
  /** Signs the callback with another secret. */
  callbackSecret?: string;
  /** Leaves identifier out of the callback. */
  noIdentifier?: boolean;
  /** Rebuilds the callback from its origin and path, dropping its query. */
  dropCallbackQuery?: boolean;
  /** Rejects every redirect. */
  rejectAll?: boolean;
  /** Checks the signature, then answers 200 JSON instead of redirecting. */
  jsonAnswer?: boolean;
  /** Checks the signature, then shows a login page (200 HTML). */
  loginPage?: boolean;
  /** Wants a parameter the platform never sends: 400 JSON naming missing parameters. */
  extraParameter?: string;
  /** Verifies against the URL as a framework reports it: localhost in place of 127.0.0.1. */
  hostRewrite?: boolean;
}

// Written with node:crypto from the contract's words, not with core: the runner's use of core's
// signing is checked against an independent implementation.
function hmac(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text).digest('hex');
}

function connectEndpoint(faults: ConnectFaults, origin: () => string) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const reported = faults.hostRewrite ? origin().replace('127.0.0.1', 'localhost') : origin();
    const received = `${reported}${req.url ?? '/'}`;
    const url = new URL(received);
    const signature = url.searchParams.get('signature') ?? '';
    // The signature is the last parameter: the signed string is the URL without it, as text.
    const signed = received.replace(/[?&]signature=[^&]*$/, '');
    const expected = hmac(SECRET, signed);
    const valid =
      signature.length === expected.length &&
      timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
    if (faults.extraParameter && !url.searchParams.has(faults.extraParameter)) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'Missing required parameters' }));
      return;
    }
    if (faults.rejectAll || (!faults.noSignatureCheck && !valid)) {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end('Invalid signature');
      return;
    }
    if (faults.jsonAnswer) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"success":true}');
      return;
    }
    if (faults.loginPage) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<!doctype html><title>Log in</title><form method="post"><input name="email"></form>',
      );
      return;
    }
    if (faults.loginFirst) {
      res.writeHead(302, { location: '/login' });
      res.end();
      return;
    }
    const callback = url.searchParams.get('callback') ?? url.searchParams.get('callbackUrl') ?? '';
    const back = new URL(callback);
    let target = faults.dropCallbackQuery ? `${back.origin}${back.pathname}` : callback;
    if (!faults.noIdentifier) {
      target += `${target.includes('?') ? '&' : '?'}identifier=${encodeURIComponent(MEMBER)}`;
    }
    target += `${target.includes('?') ? '&' : '?'}signature=${hmac(faults.callbackSecret ?? SECRET, target)}`;
    res.writeHead(302, { location: target });
    res.end();
  };
}

const open: Served[] = [];
afterEach(async () => {
  for (const served of open.splice(0)) await served.close();
});

async function runConnect(faults: ConnectFaults, showSecrets = false): Promise<ConformanceReport> {
  let origin = '';
  const connect = await serve(
    connectEndpoint(faults, () => origin),
    '/connect',
  );
  origin = connect.origin;
  const verify = await serve(handWrittenEndpoint().listener);
  open.push(connect, verify);
  return runConformance({
    url: verify.url,
    apiKey: TEST_API_KEY,
    // The platform's limit: a busy machine's slow answer is no verdict.
    timeoutMs: 10_000,
    only: ['claim', 'connect.'],
    connect: { url: connect.url, secret: SECRET },
    showSecrets,
  });
}

function statuses(report: ConformanceReport): Record<string, string> {
  return Object.fromEntries(
    report.checks.filter((c) => c.group !== 'member').map((c) => [c.id, c.status]),
  );
}

describe('connect checks', () => {
  it('pass against a correct connect endpoint that redirects straight back', async () => {
    const report = await runConnect({});
    expect(statuses(report)).toEqual({
      'claim.well-formed': 'pass',
      'connect.signed-redirect': 'pass',
      'connect.tampered-redirect': 'pass',
      'connect.unsigned-redirect': 'pass',
      'connect.callback': 'pass',
    });
    const signed = report.checks.find((c) => c.id === 'connect.signed-redirect')!;
    expect(signed.received?.status).toBe(302);
  });

  it('fail when the endpoint accepts tampered and unsigned redirects', async () => {
    const report = await runConnect({ noSignatureCheck: true });
    expect(statuses(report)).toMatchObject({
      'connect.signed-redirect': 'pass',
      'connect.tampered-redirect': 'fail',
      'connect.unsigned-redirect': 'fail',
      'connect.callback': 'pass',
    });
    const tampered = report.checks.find((c) => c.id === 'connect.tampered-redirect')!;
    expect(tampered.findings[0]?.message).toMatch(/anyone could link any platform account/);
  });

  it.each([
    [{ callbackSecret: 'another-secret' }, /does not verify \(bad_signature\)/],
    [{ noIdentifier: true }, /no identifier/],
    [{ dropCallbackQuery: true }, /lost the query parameters/],
  ] as const)('fail the callback check when the callback is wrong %#', async (faults, message) => {
    const report = await runConnect(faults);
    expect(statuses(report)).toMatchObject({
      'connect.signed-redirect': 'pass',
      'connect.tampered-redirect': 'pass',
      'connect.callback': 'fail',
    });
    const callback = report.checks.find((c) => c.id === 'connect.callback')!;
    expect(callback.findings.map((f) => f.message).join(' ')).toMatch(message);
  });

  it.each([
    [
      { loginFirst: true },
      /^not judged past the login: the handler redirected to \/login, not to the callback/,
    ],
    [{ loginPage: true }, /^not judged past the login: the handler answered 200 with a page/],
  ] as const)('skip the callback past a login step, and say how to judge it %#', async (faults, reason) => {
    const report = await runConnect(faults);
    const callback = report.checks.find((c) => c.id === 'connect.callback')!;
    expect(callback.status).toBe('skip');
    expect(callback.skipReason).toMatch(reason);
    expect(callback.skipReason).toMatch(
      /test mode of the handler in which the member is already logged in/,
    );
    expect(report.summary.ok).toBe(true);
  });

  it('fail a handler that answers JSON instead of redirecting: members can never link', async () => {
    const report = await runConnect({ jsonAnswer: true });
    expect(statuses(report)).toMatchObject({
      'connect.signed-redirect': 'pass',
      'connect.tampered-redirect': 'pass',
      'connect.callback': 'fail',
    });
    const callback = report.checks.find((c) => c.id === 'connect.callback')!;
    expect(callback.findings[0]?.message).toMatch(
      /^answered 200 application\/json: "\{\\"success\\":true\}" to a correctly signed redirect, and did not redirect to the callback: .*members can never link/,
    );
    expect(report.summary.ok).toBe(false);
  });

  it('quote a handler that wants another parameter, and list the three the platform sends', async () => {
    const report = await runConnect({ extraParameter: 'state' });
    const signed = report.checks.find((c) => c.id === 'connect.signed-redirect')!;
    expect(signed.status).toBe('fail');
    const message = signed.findings[0]!.message;
    expect(message).toMatch(
      /^rejected a correctly signed redirect with 400: "Missing required parameters"\. The platform sends exactly three query parameters: svcUserId .*, callback .* and signature/,
    );
    // Nothing in its answer is about a signature: the advice does not blame one.
    expect(message).not.toMatch(/signature check fails/);
  });

  it('name the host a framework reports as the usual cause of a failed signature check', async () => {
    const report = await runConnect({ hostRewrite: true });
    const signed = report.checks.find((c) => c.id === 'connect.signed-redirect')!;
    expect(signed.status).toBe('fail');
    const message = signed.findings[0]!.message;
    expect(message).toMatch(
      /^rejected a correctly signed redirect with 400: "Invalid signature"\. If its signature check fails, the usual cause is a framework or proxy that reports another host or scheme than the one signed \(http:\/\/127\.0\.0\.1:\d+\): Next\.js reports localhost/,
    );
    expect(message).toMatch(/svcUserId/);
    // The fix, by the name a questkit project sets it with.
    expect(message).toMatch(
      /Set the public URL to http:\/\/127\.0\.0\.1:\d+ \(PUBLIC_URL in a questkit project, the connect endpoint's publicUrl\)/,
    );
  });

  // The issue's case: Next.js with --connect and no PUBLIC_URL checks the signature against the
  // localhost URL Next.js reports. Its advice was cut mid-word, even with --verbose.
  it('show that advice whole in the human report, with and without --verbose', async () => {
    const report = await runConnect({ hostRewrite: true });
    const message = report.checks.find((c) => c.id === 'connect.signed-redirect')!.findings[0]!
      .message;
    expect(message.length).toBeGreaterThan(400);
    for (const verbose of [false, true]) {
      const text = formatHuman(report, { verbose });
      const line = text.split('\n').find((l) => l.includes('rejected a correctly signed redirect'));
      expect(line).toBe(`        ✗ connect: ${message}`);
      expect(text).not.toMatch(/\w…/);
    }
  });

  it('fail the signed redirect when the endpoint rejects it', async () => {
    const report = await runConnect({ rejectAll: true });
    expect(statuses(report)).toMatchObject({
      'connect.signed-redirect': 'fail',
      'connect.tampered-redirect': 'pass',
      'connect.callback': 'skip',
    });
  });

  it('redact signatures unless asked', async () => {
    const redacted = await runConnect({});
    const text = JSON.stringify(redacted);
    expect(text).not.toMatch(/signature=[0-9a-f]{64}/);
    expect(text).not.toContain(SECRET);
    expect(redacted.checks.find((c) => c.id === 'connect.signed-redirect')?.sent?.url).toContain(
      'signature=REDACTED',
    );

    const shown = await runConnect({}, true);
    expect(JSON.stringify(shown)).toMatch(/signature=[0-9a-f]{64}/);
  });
});
