import { createVerifier, fail, ok } from '@questkit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { formatHuman } from './reporters/human.js';
import { runConformance } from './run.js';
import { readAll, type Served, serve } from './test-support/serve.js';

// Whole runs against real endpoints on loopback, read as `questkit check` prints them: the lines a
// user acts on, which the reporters' unit tests only see with a hand-made report.
const KEY = 'reported-test-key';
// The platform's 10 s limit: a busy machine's slow answer is no verdict here.
const FAST = { timeoutMs: 10_000, burst: 2, samples: 2 } as const;

const servers: Served[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function served(verify: () => ReturnType<typeof ok>): Promise<string> {
  const server = await serve(createVerifier({ apiKey: KEY, verify }).node);
  servers.push(server);
  return server.url;
}

describe('what a run reports', () => {
  it('says once that every claim got 404, and blames no key', async () => {
    const server = await serve(async (req, res) => {
      await readAll(req);
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>');
    });
    servers.push(server);
    const report = await runConformance({
      url: server.url.replace('/verify', '/verfy'),
      apiKey: KEY,
      ...FAST,
    });
    expect(report.summary.headline).toBe(
      'Every claim got 404: nothing answers a POST at /verfy. Is the path right? The platform POSTs its claims as JSON.',
    );
    expect(report.checks.find((check) => check.id === 'member.api-key')).toMatchObject({
      status: 'not_judged',
      skipReason: expect.stringMatching(/no 200 or 400 answer to compare/),
    });
    const text = formatHuman(report);
    expect(text.split('\n')[2]).toBe(report.summary.headline);
    expect(text).not.toMatch(/refuses the key|same answer as a wrong/);
    // The checks that got the same 404 are folded into one line, not listed one by one.
    expect(text).toMatch(/\d+ more checks got the same answer: see the line at the top\./);
    expect(text.split('\n').length).toBeLessThan(90);
  });

  it('warns that anyone can call the endpoint when the task has no key (noApiKey)', async () => {
    // Refuses every claim that has no key, as this endpoint still expects one.
    const url = await served(() => ok('Verified.'));
    const report = await runConformance({ url, noApiKey: true, only: ['claim'], ...FAST });
    const verdict = report.checks.find((check) => check.id === 'member.api-key');
    expect(verdict?.status).toBe('warn');
    expect(verdict?.findings.map((finding) => finding.message).join(' ')).toMatch(
      /the task has no API key: anyone who finds the endpoint can call it, learn whether a member qualifies/,
    );
    expect(report.summary.ok).toBe(true);
  });

  it('ends a passing run with the answer a member got and the tiers', async () => {
    const url = await served(() => fail('Subscribe first.'));
    const report = await runConformance({ url, apiKey: KEY, ...FAST });
    const text = formatHuman(report);
    // A refusal is the member's answer, not the run's failure: said so before PASSED.
    expect(text).toContain(
      'Your handler refused the sample member with 400 "Subscribe first.": a member who has not done the task reads this (a valid answer)',
    );
    expect(text).toContain('Tiers: platform PASS  members PASS  hardening PASS');
    expect(text).toMatch(/PASSED: the platform's checks and your members' claims/);
  });

  it('fails three identical refusals that read as a refused key, in the words a member sees', async () => {
    const server = await serve(async (req, res) => {
      await readAll(req);
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end('{"message":"Invalid API key."}');
    });
    servers.push(server);
    const report = await runConformance({ url: server.url, apiKey: KEY, ...FAST, only: ['auth.'] });
    const key = report.checks.find((check) => check.id === 'member.api-key');
    expect(key?.status).toBe('fail');
    expect(key?.findings[0]).toMatchObject({
      code: 'key-refused',
      message:
        'your endpoint refuses the key you gave: the task key, a wrong key and no key all got 400 "Invalid API key.", which reads as a refused key. Every member would see "Invalid API key." on every claim: set the endpoint\'s key to the task\'s API key.',
    });
    expect(formatHuman(report)).toMatch(/^FAILED \(members\)/m);
  });

  it('promises only the platform when a members check was not judged, and says which', async () => {
    const server = await serve(async (req, res) => {
      await readAll(req);
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"Not yet."}');
    });
    servers.push(server);
    const report = await runConformance({ url: server.url, apiKey: KEY, ...FAST, only: ['auth.'] });
    expect(report.summary.verdict).toBe('pass');
    const last = formatHuman(report).trimEnd().split('\n').at(-1);
    expect(last).toBe(
      "PASSED: the platform's checks will go through. Your members' side is not promised: member.api-key was not judged (see above for how to judge it).",
    );
  });

  it('never calls a failing sample claim a valid answer, nor quotes a missing message as ""', async () => {
    const server = await serve(async (req, res) => {
      await readAll(req);
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"no"}');
    });
    servers.push(server);
    const report = await runConformance({ url: server.url, apiKey: KEY, ...FAST, only: ['auth.'] });
    const text = formatHuman(report);
    expect(text).toContain(
      'The sample claim got 400 (no JSON message): the platform fails it (see above)',
    );
    expect(text).not.toContain('(a valid answer)');
    expect(text).not.toContain('400 ""');
  });
});
