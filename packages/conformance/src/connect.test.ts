import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
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
}

// Written with node:crypto from the contract's words, not with core: the runner's use of core's
// signing is checked against an independent implementation.
function hmac(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text).digest('hex');
}

function connectEndpoint(faults: ConnectFaults, origin: () => string) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const received = `${origin()}${req.url ?? '/'}`;
    const url = new URL(received);
    const signature = url.searchParams.get('signature') ?? '';
    // The signature is the last parameter: the signed string is the URL without it, as text.
    const signed = received.replace(/[?&]signature=[^&]*$/, '');
    const expected = hmac(SECRET, signed);
    const valid =
      signature.length === expected.length &&
      timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
    if (faults.rejectAll || (!faults.noSignatureCheck && !valid)) {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end('Invalid signature');
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

  it('skip the callback check when the endpoint shows a login first', async () => {
    const report = await runConnect({ loginFirst: true });
    const callback = report.checks.find((c) => c.id === 'connect.callback')!;
    expect(callback.status).toBe('skip');
    expect(callback.skipReason).toMatch(/login first/);
    expect(report.summary.ok).toBe(true);
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
