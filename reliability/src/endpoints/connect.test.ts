/**
 * Open-redirect attempts against every adapter's connect endpoint, over real HTTP: swapped and
 * re-hosted callbacks, dangerous schemes, protocol-relative and double-encoded callbacks,
 * repeated parameters, forged and tampered signatures, path tricks; with and without an
 * allow-list of callback origins.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COUNTS, SEED } from '../config.js';
import { ADAPTER_LABELS, SUITE_ADAPTERS } from '../harness/adapters.js';
import { sign } from '../harness/connect-sign.js';
import { runPool } from '../harness/pool.js';
import { exchange, type RawResponse } from '../harness/raw-http.js';
import { CONNECT_SECRET, LeakScanner } from '../harness/secrets.js';
import { startServer } from '../harness/server-process.js';
import { n, record } from '../report/record.js';
import { CONNECT_MEMBER } from '../servers/protocol.js';
import { type ConnectCase, connectCaseArbitrary } from './connect-attacks.js';

function judge(item: ConnectCase, response: RawResponse): string[] {
  const location = response.headers.get('location') ?? [];
  if (response.status !== 302) {
    if (item.refusals.includes(response.status) && location.length === 0) return [];
    return [`status ${response.status}: ${response.body.toString().slice(0, 120)}`];
  }
  if (item.callback === null) return [`redirects to ${location.join(', ')}`];
  // The callback the service signed, with the member's identifier, signed again: nothing else.
  const expected = new URL(item.callback);
  expected.searchParams.set('identifier', CONNECT_MEMBER);
  const want = sign(expected.href, CONNECT_SECRET).url;
  return location.length === 1 && location[0] === want
    ? []
    : [`redirects to ${location.join(', ')}, expected ${want}`];
}

describe.each(SUITE_ADAPTERS)('open-redirect attempts on the %s connect endpoint', (adapter) => {
  it(`refuses every bent link among ${COUNTS.connectCasesPerAdapter} generated ones`, async () => {
    const server = await startServer(adapter);
    const scanner = new LeakScanner();
    const cases = fc.sample(
      fc.tuple(
        connectCaseArbitrary,
        fc.constantFrom('application/json', 'application/json', 'text/html'),
      ),
      { seed: SEED, numRuns: COUNTS.connectCasesPerAdapter },
    );
    const violations: string[] = [];
    const kinds = new Map<string, { sent: number; refused: number }>();
    let accepted = 0;
    let frameworkNotFound = 0;
    try {
      await runPool(cases.length, 8, async (index) => {
        const [item, accept] = cases[index]!;
        for (const signature of item.signatures) scanner.addSignature(signature);
        const parsed = new URL(item.url);
        const target = item.target ?? `${parsed.pathname}${parsed.search}`;
        const request = Buffer.from(
          `GET ${target} HTTP/1.1\r\nhost: 127.0.0.1\r\naccept: ${accept}\r\nconnection: close\r\n\r\n`,
          'latin1',
        );
        const tally = kinds.get(item.kind) ?? { sent: 0, refused: 0 };
        kinds.set(item.kind, tally);
        tally.sent++;
        try {
          const response = await exchange(server.port, request, { timeoutMs: 5_000 });
          // A path that misses the route gets the framework's own 404, not questkit's answer.
          if (response.status === 404) frameworkNotFound++;
          else scanner.scan(`answer to ${item.kind}`, response.raw.toString('latin1'));
          if (response.status === 302) accepted++;
          else tally.refused++;
          for (const problem of judge(item, response)) {
            violations.push(`${item.kind} #${index} (${target.slice(0, 160)}): ${problem}`);
          }
        } catch (error) {
          violations.push(`${item.kind} #${index}: ${(error as Error).message}`);
        }
      });
      const crash = server.crash();
      if (crash) violations.push(`server crashed: ${JSON.stringify(crash)}`);
      const stats = crash ? undefined : await server.stats();
      // onLinked runs for exactly the links that were honored.
      if (stats && stats.linked !== accepted) {
        violations.push(`onLinked called ${stats.linked} times for ${accepted} redirects`);
      }
      if ((stats?.unhandledRejections ?? 0) > 0) violations.push('unhandled rejections');
      scanner.scan('server output', server.output());
      for (const leak of scanner.leaks) violations.push(`secret in ${leak.where}: ${leak.excerpt}`);
      const attacks = [...kinds.entries()].filter(([kind]) => kind !== 'legit');
      const refusedAttacks = attacks.reduce((sum, [, t]) => sum + t.refused, 0);
      const attackCount = attacks.reduce((sum, [, t]) => sum + t.sent, 0);
      record({
        area: 'Connect: open redirects',
        subject: ADAPTER_LABELS[adapter],
        requests: cases.length,
        faults: attackCount,
        held:
          `${attacks.length} kinds of bent links (swapped or re-hosted callback, javascript:/data:/protocol-relative ` +
          'callbacks, double encoding, repeated or encoded parameters, forged or tampered signatures, path tricks): ' +
          `${n(refusedAttacks)} of ${n(attackCount)} refused; the others were signed http(s) callbacks on the route ` +
          'without an allow-list or paths equal to the route once normalized, and were followed only to the signed ' +
          `callback; allow-list honored; every one of ${n(accepted)} redirects exactly to the signed callback, onLinked ` +
          'once per redirect; no signature or secret echoed or logged' +
          (frameworkNotFound > 0
            ? ` (${n(frameworkNotFound)} paths missed the route: the framework's own 404)`
            : ''),
        violations: violations.length,
      });
      expect(violations.slice(0, 20)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
