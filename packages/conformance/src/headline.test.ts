import type { IncomingMessage, ServerResponse } from 'node:http';
import { createVerifier, fail } from '@questkit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { escapeText } from './escape.js';
import { formatHuman } from './reporters/human.js';
import { runConformance } from './run.js';
import { readAll, type Served, serve } from './test-support/serve.js';

// Each sentence that can lead a report (the headline), from a whole run against a real endpoint on
// loopback that earns it, and where it shows: the line after the title of the human report.
const KEY = 'headline-test-key';
const FAST = { timeoutMs: 10_000, burst: 2, samples: 2 } as const;

const servers: Served[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function answering(
  status: number,
  body: string,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<string> {
  const server = await serve(async (req, res) => {
    await readAll(req);
    res.writeHead(status, headers).end(body);
  });
  servers.push(server);
  return server.url;
}

async function headlineOf(url: string, options: { only?: string[] } = {}) {
  const report = await runConformance({ url, apiKey: KEY, ...FAST, ...options });
  const text = formatHuman(report);
  expect(text.split('\n')[2]).toBe(escapeText(report.summary.headline ?? ''));
  return report;
}

describe('the headline: one sentence when every claim got the same wrong answer', () => {
  it('no answer at all: the endpoint is unreachable', async () => {
    const server = await serve(() => {});
    await server.close();
    const report = await headlineOf(server.url);
    expect(report.summary.headline).toBe(
      `No answer from ${server.url}: connection refused (ECONNREFUSED). Is the endpoint running, and are the host, port and scheme right?`,
    );
  });

  it('no claim answered in time: the endpoint hangs', async () => {
    const server = await serve(() => {});
    servers.push(server);
    const report = await runConformance({
      url: server.url,
      apiKey: KEY,
      timeoutMs: 300,
      only: ['auth.'],
    });
    expect(report.summary.headline).toBe(
      `No claim got an answer in time from ${server.url}: the endpoint hangs before it answers. Is a middleware waiting for a body or a database?`,
    );
  });

  it.each([
    [404, /^Every claim got 404: nothing answers a POST at \/verify\. Is the path right\?/],
    [405, /^Every claim got 405: nothing takes a POST at \/verify\./],
    [
      401,
      /^Every claim got 401, with the task key or without: something in front of your handler refuses them/,
    ],
    [403, /^Every claim got 403, with the task key or without/],
    [
      500,
      /^Every claim got 500: the endpoint fails before it reads the claim\. Look at its log\.$/,
    ],
    [418, /^Every claim got 418, a status the platform never accepts\.$/],
  ])('every claim got %i', async (status, sentence) => {
    const report = await headlineOf(await answering(status, '{"error":"no"}'), { only: ['auth.'] });
    expect(report.summary.headline).toMatch(sentence);
  });

  it('every claim got a redirect: it names where to, its controls escaped in the report', async () => {
    const url = await answering(302, '', { location: 'https://login.example/\u009b2Kx' });
    const report = await headlineOf(url, { only: ['auth.'] });
    expect(report.summary.headline).toBe(
      'Every claim got 302, a redirect to https://login.example/\u009b2Kx: the platform does not follow redirects. Configure the final URL.',
    );
    expect(formatHuman(report)).toContain('redirect to https://login.example/\\u009b2Kx:');
    expect(formatHuman(report)).not.toContain('\u009b');
  });

  it('every claim got the same 200 text "OK": one sentence, the repeats folded', async () => {
    const url = await answering(200, 'OK', { 'content-type': 'text/plain' });
    const report = await headlineOf(url);
    expect(report.summary.headline).toBe(
      'Every claim got the same answer, 200 text/plain "OK", and the platform fails each one: message_format: the body is not JSON {"message": "..."}. Answer {"message": "..."} as JSON, 200 when the member did the task, 400 when not.',
    );
    const text = formatHuman(report);
    // One failure in full, the rest folded, as a 404 everywhere is; the key verdict is another
    // failure (a wrong key gets the same 200), so it has its own block.
    expect(text.match(/^ {2}FAIL .*$/gm)).toEqual([
      expect.stringMatching(/^ {2}FAIL {2}claim\.well-formed /),
      expect.stringMatching(/^ {2}FAIL {2}member\.api-key /),
    ]);
    expect(text).toMatch(/\d+ more checks got the same answer: see the line at the top\./);
  });

  it('says nothing when the answers differ', async () => {
    const url = await serve(
      createVerifier({ apiKey: KEY, verify: () => fail('Subscribe first.') }).node,
    );
    servers.push(url);
    const report = await runConformance({ url: url.url, apiKey: KEY, ...FAST });
    expect(report.summary.headline).toBeUndefined();
  });
});

/** An endpoint that dies (closes its port and every connection) on the first claim `kills`. */
async function dying(kills: (claim: Record<string, unknown>) => boolean) {
  let served: Served | undefined;
  let dead = false;
  const listener = async (req: IncomingMessage, res: ServerResponse) => {
    const text = (await readAll(req)).toString('utf8');
    let claim: Record<string, unknown> = {};
    try {
      claim = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // Not a claim: refused below.
    }
    if (!dead && kills(claim)) {
      dead = true;
      // As a process that exits: the port closes, every open connection with it.
      void served?.close();
      return;
    }
    res.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"Not yet."}');
  };
  served = await serve(listener);
  return served;
}

describe('a server that stops answering mid-run', () => {
  const withoutWallet = (claim: Record<string, unknown>) =>
    (claim.accounts as Record<string, unknown> | undefined)?.wallet === undefined &&
    claim.userId !== undefined;

  it('names the probe it stopped at, fails the members tier, and leads the report with it', async () => {
    const server = await dying(withoutWallet);
    const report = await runConformance({
      url: server.url,
      apiKey: KEY,
      ...FAST,
      concurrency: 1,
      identifications: ['wallet'],
    });
    const stays = report.checks.find((check) => check.id === 'member.stays-up');
    expect(stays?.status).toBe('fail');
    expect(report.stoppedAnswering?.at).toHaveLength(1);
    const [at] = report.stoppedAnswering!.at;
    expect(report.summary.headline).toMatch(
      new RegExp(
        `^The server stopped answering at ${at!.replace(/\./g, '\\.')}: its connection closed without an answer, and the \\d+ requests after it were refused\\. It probably crashed, and anyone can send the request that crashed it: send it again \\(the curl line\\) and read the server's log\\.$`,
      ),
    );
    // The check shows the request that stopped it, to send again.
    expect(stays?.sent?.body).not.toContain('wallet');
    expect(report.summary).toMatchObject({ verdict: 'fail', ok: false });
    expect(report.summary.tiers.members).toBe('fail');
    const text = formatHuman(report);
    expect(text.split('\n')[2]).toBe(report.summary.headline);
    expect(text).toMatch(
      /\d+ more checks got no answer once the server had stopped \(not judged\)/,
    );
    expect(text).toMatch(/^FAILED \(members\)/m);
    expect(text).not.toContain('PASSED');
  });

  it('never reads a drifted key without an answer as one answered differently', async () => {
    // The key check dies on the first claim without the task key.
    let killer: Served | undefined;
    killer = await serve(async (req, res) => {
      await readAll(req);
      if (req.headers['x-api-key'] !== KEY) {
        void killer?.close();
        return;
      }
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"Not yet."}');
    });
    const report = await runConformance({ url: killer.url, apiKey: KEY, ...FAST, concurrency: 1 });
    const key = report.checks.find((check) => check.id === 'member.api-key');
    expect(key?.status).toBe('not_judged');
    expect(key?.skipReason).toMatch(
      /got no answer .*so nothing tells whether the endpoint checks the key/,
    );
    expect(report.checks.find((check) => check.id === 'member.stays-up')?.status).toBe('fail');
  });
});
