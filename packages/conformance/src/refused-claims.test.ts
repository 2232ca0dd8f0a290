import { afterEach, describe, expect, it } from 'vitest';
import { formatHuman } from './reporters/human.js';
import { runConformance } from './run.js';
import { readAll, type Served, serve } from './test-support/serve.js';

// Survivor of the fifth round's hand mutations: a 403 to every claim losing its headline (the
// one sentence that says something in front of the handler refuses every claim) was caught by no
// test. Each status is its own test, so a mutation of either comparison is seen.

const KEY = 'refused-claims-test-key';
// The platform's 10 s limit: a busy machine's slow answer is no verdict here.
const FAST = { timeoutMs: 10_000, burst: 2, samples: 2 } as const;

const servers: Served[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('an endpoint that refuses every claim before the handler', () => {
  it.each([
    401, 403,
  ])('every claim %i: the headline says so, first in the report', async (status) => {
    const server = await serve(async (req, res) => {
      await readAll(req);
      res.writeHead(status, { 'content-type': 'application/json' }).end('{"error":"forbidden"}');
    });
    servers.push(server);
    const report = await runConformance({ url: server.url, apiKey: KEY, ...FAST });
    expect(report.summary.headline).toBe(
      `Every claim got ${status}, with the task key or without: something in front of your handler refuses them (an auth middleware, a proxy). The platform sends only X-Api-Key; answer 200 or 400.`,
    );
    expect(report.summary.verdict).toBe('fail');
    expect(formatHuman(report).split('\n')[2]).toBe(report.summary.headline);
  });
});
