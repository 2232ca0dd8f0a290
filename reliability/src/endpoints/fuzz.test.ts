/**
 * Fuzzing every adapter's verification endpoint over real HTTP: seeded, reproducible requests of
 * every shape, each answer checked against the contract, then the server checked for crashes,
 * unhandled rejections, prototype pollution and memory left behind.
 */
import fc from 'fast-check';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { COUNTS, SEED } from '../config.js';
import { ADAPTER_LABELS, SUITE_ADAPTERS } from '../harness/adapters.js';
import { contractViolations } from '../harness/contract.js';
import { runPool } from '../harness/pool.js';
import { exchange, serializeRequest } from '../harness/raw-http.js';
import { LeakScanner } from '../harness/secrets.js';
import { startServer } from '../harness/server-process.js';
import { mb, n, record } from '../report/record.js';
import { ROUTES } from '../servers/protocol.js';
import { type FuzzCase, fuzzCaseArbitrary } from './requests.js';

const BATCH = 100;
const WARM_UP = 300;
/** Heap the server may keep after the run, over its warmed-up baseline, after a full GC. */
const HEAP_TOLERANCE = 8 * 1024 * 1024;

/**
 * Methods Fastify routes. Its README documents that other methods (WebDAV verbs) get the app's
 * 404 before any plugin runs: counted apart, not as violations.
 */
const FASTIFY_METHODS = new Set(Fastify().supportedMethods);

/** The cases of one batch: reproducible from the seed and the batch number alone. */
function batch(route: string, seed: number, size: number): FuzzCase[] {
  return fc.sample(fuzzCaseArbitrary(route), { seed, numRuns: size });
}

describe.each(SUITE_ADAPTERS)('fuzzing the %s verification endpoint', (adapter) => {
  it(`answers ${COUNTS.fuzzRequestsPerAdapter} generated requests within the contract`, async () => {
    const server = await startServer(adapter, { timeoutMs: 2000 });
    const routes =
      adapter === 'express' || adapter === 'express4'
        ? [ROUTES.verify, ROUTES.verifyParsed]
        : [ROUTES.verify];
    const scanner = new LeakScanner();
    const violations: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    let unroutedMethods = 0;

    const send = async (item: FuzzCase, label: string) => {
      const head = item.spec.method === 'HEAD';
      sent++;
      try {
        const response = await exchange(server.port, serializeRequest(item.spec), {
          head,
          timeoutMs: 10_000,
        });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        scanner.scan(label, response.raw.toString('latin1'));
        if (
          adapter === 'fastify' &&
          response.status === 404 &&
          !FASTIFY_METHODS.has(item.spec.method)
        ) {
          unroutedMethods++;
          return;
        }
        const problems = contractViolations(response, { head });
        if (response.status === 200 && !item.mayClaim)
          problems.push('200 without POST and the key');
        for (const problem of problems)
          violations.push(`${label} (${item.spec.method}, ${item.bodyKind}): ${problem}`);
      } catch (error) {
        violations.push(
          `${label} (${item.spec.method}, ${item.bodyKind}): ${(error as Error).message}`,
        );
      }
    };

    try {
      // Warm up with cases of another seed, so the baseline already holds what every code path
      // allocates once (compiled code, framework caches).
      const warmUp = routes.flatMap((route) => batch(route, SEED - 1, WARM_UP / routes.length));
      await runPool(warmUp.length, COUNTS.fuzzConcurrency, (i) =>
        send(warmUp[i]!, `warm-up #${i}`),
      );
      const before = await server.stats({ gc: true });

      const batches = Math.ceil(COUNTS.fuzzRequestsPerAdapter / BATCH);
      for (let b = 0; b < batches; b++) {
        const route = routes[b % routes.length]!;
        const size = Math.min(BATCH, COUNTS.fuzzRequestsPerAdapter - b * BATCH);
        const cases = batch(route, SEED + b, size);
        // A failure names its seed and index: fc.sample(fuzzCaseArbitrary(route), { seed,
        // numRuns: 100 })[index] rebuilds the request.
        await runPool(cases.length, COUNTS.fuzzConcurrency, (i) =>
          send(cases[i]!, `${route} seed ${SEED + b} #${i}`),
        );
        if (server.crash()) break;
      }

      const crash = server.crash();
      if (crash) violations.push(`server crashed: ${JSON.stringify(crash)}`);
      const after = crash ? undefined : await server.stats({ gc: true });
      const heapGrowth = after ? after.heapUsed - before.heapUsed : Number.NaN;
      if (after) {
        for (const change of after.pollution) violations.push(`prototype pollution: ${change}`);
        if (after.unhandledRejections > 0) {
          violations.push(`${after.unhandledRejections} unhandled rejections`);
        }
        if (heapGrowth > HEAP_TOLERANCE) {
          violations.push(`heap grew by ${mb(heapGrowth)} (from ${mb(before.heapUsed)})`);
        }
      }
      scanner.scan('server output', server.output());
      for (const leak of scanner.leaks) violations.push(`secret in ${leak.where}: ${leak.excerpt}`);

      const count = (status: number) => (statuses.get(status) ?? 0).toLocaleString('en-US');
      record({
        area: 'Verification endpoints: fuzz',
        subject: ADAPTER_LABELS[adapter],
        requests: sent,
        faults: 0,
        held:
          `every answer 200 or 400 JSON {message} (${count(200)} × 200, ${count(400)} × 400` +
          (unroutedMethods > 0
            ? `; ${n(unroutedMethods)} requests with methods Fastify does not route got the app's 404, as documented`
            : '') +
          '); ' +
          `200 only for POST with the key; no crash; ${after?.unhandledRejections ?? '?'} unhandled rejections; ` +
          `no prototype pollution; heap after GC ${mb(before.heapUsed)} → ${after ? mb(after.heapUsed) : '?'}; ` +
          `no secret in ${n(scanner.scannedTexts)} answers and logs`,
        violations: violations.length + scanner.leakCount - scanner.leaks.length,
      });
      expect(violations.slice(0, 20)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
