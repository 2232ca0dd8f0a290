import { createVerifier, fail, ok } from '@questkit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { runConformance } from './run.js';
import { TEST_API_KEY } from './test-support/endpoints.js';
import { fetchListener, type Served, serve } from './test-support/serve.js';

const open: Served[] = [];
afterEach(async () => {
  for (const served of open.splice(0)) await served.close();
});

async function serveVerifier(verifier: { fetch: (request: Request) => Promise<Response> }) {
  const served = await serve(fetchListener(verifier.fetch));
  open.push(served);
  return served.url;
}

// The platform's 10 s limit, whose 5 s slowness threshold no local answer nears even on a busy
// machine: a warning here would be the machine's, not the endpoint's.
describe('runConformance against endpoints built with questkit', () => {
  it('passes every check of a verifier that claims', async () => {
    const url = await serveVerifier(
      createVerifier({ apiKey: TEST_API_KEY, verify: () => ok('Done!') }),
    );
    const report = await runConformance({
      url,
      apiKey: TEST_API_KEY,
      timeoutMs: 10_000,
      burst: 4,
      samples: 3,
      expect: 'pass',
    });
    expect(report.checks.filter((c) => c.status !== 'pass')).toEqual([]);
    expect(report.checks[0]?.received?.status).toBe(200);
  });

  it('passes every check of a verifier that requires accounts and refuses the claim', async () => {
    const url = await serveVerifier(
      createVerifier({
        apiKey: [TEST_API_KEY, 'old-key'],
        requires: ['email', 'discord'],
        verify: ({ accounts }) => fail(`No subscription for ${accounts.email}.`),
      }),
    );
    const report = await runConformance({
      url,
      apiKey: TEST_API_KEY,
      timeoutMs: 10_000,
      burst: 4,
      samples: 3,
      expect: 'fail',
    });
    expect(report.checks.filter((c) => c.status !== 'pass')).toEqual([]);
    expect(report.summary.ok).toBe(true);
  });

  it('finds a handler that hangs past the limit', async () => {
    const url = await serveVerifier(
      createVerifier({
        apiKey: TEST_API_KEY,
        timeoutMs: 9000,
        verify: ({ signal }) =>
          new Promise((resolve) =>
            signal.addEventListener('abort', () => resolve(fail('Too slow.'))),
          ),
      }),
    );
    const report = await runConformance({
      url,
      apiKey: TEST_API_KEY,
      timeoutMs: 300,
      only: ['claim'],
    });
    expect(report.checks[0]?.status).toBe('fail');
    expect(report.checks[0]?.findings.map((f) => f.rule)).toEqual(['response_time']);
  });
});
