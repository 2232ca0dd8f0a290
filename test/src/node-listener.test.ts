import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runConformance } from '@questkit/conformance';
import { createVerifier, ok } from '@questkit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Core's own request listener on plain node:http, with Node's real types (this package
// typechecks its tests against @types/node, which core itself never loads), judged by the
// conformance runner's whole battery.
const KEY = 'node-listener-e2e-key';

let server: Server;
let verifyUrl: string;

beforeAll(async () => {
  const verifier = createVerifier({ apiKey: KEY, verify: () => ok('Claimed on plain Node.') });
  server = createServer(verifier.node);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  verifyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/verify`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('createServer(verifier.node)', () => {
  it('passes the conformance runner', async () => {
    const report = await runConformance({ url: verifyUrl, apiKey: KEY, expect: 'pass' });
    const failed = report.checks.filter((check) => check.status === 'fail');
    expect(failed.map((check) => `${check.id}: ${check.findings[0]?.message}`)).toEqual([]);
    expect(report.summary).toMatchObject({ ok: true, skipped: 0 });
    expect(report.summary.platform).toEqual({
      response_time: 'pass',
      message_format: 'pass',
      status_code: 'pass',
    });
  });
});
