/**
 * Conformance runner: wall time of the full battery (claim probes and connect checks) against a
 * local questkit endpoint. The endpoint runs on the server core, the runner on the load core.
 */
import { requireExports } from '../lib/available.mjs';
import { LOAD_CORE, runNodeScript, startServer } from '../lib/proc.mjs';
import { median, round } from '../lib/stats.mjs';

/** `options`: { rounds, log }. */
export async function runConformanceSuite(options) {
  const found = await requireExports('@questkit/conformance', ['runConformance']);
  if (!found.ok) return { available: false, reason: found.reason };
  const server = await startServer({ module: 'conformance-target' });
  try {
    // One discarded run warms both processes up.
    const output = await runNodeScript(
      'conformance/worker.mjs',
      [String(server.port), String(options.rounds + 1)],
      { core: LOAD_CORE, timeoutMs: (options.rounds + 1) * 120_000 },
    );
    const runs = JSON.parse(output.trim().split('\n').at(-1)).runs.slice(1);
    const last = runs.at(-1);
    for (const run of runs) options.log(`    ${Math.round(run.wallMs)} ms, ${run.checks} checks`);
    // The battery against endpoints that answer after 11 s and never: one round each, since
    // each takes about 30 s by design (the runner stops waiting once answers never come).
    const broken = [];
    for (const [route, target] of [
      ['/slow', 'an endpoint that answers every request after 11 s'],
      ['/never', 'an endpoint that never answers'],
    ]) {
      const out = await runNodeScript('conformance/worker.mjs', [String(server.port), '1', route], {
        core: LOAD_CORE,
        timeoutMs: 120_000,
      });
      const [run] = JSON.parse(out.trim().split('\n').at(-1)).runs;
      options.log(
        `    ${target}: ${Math.round(run.wallMs)} ms, ${run.checks} checks, failed as it should: ${!run.ok}`,
      );
      broken.push({
        target,
        probes: run.checks,
        wallMs: round(run.wallMs, 1),
        failed: !run.ok,
        counts: run.counts,
      });
    }
    return {
      broken,
      target: 'questkit node:http endpoint (core verifier.node) + connect flow',
      probes: last.checks,
      wallMs: round(median(runs.map((run) => run.wallMs)), 1),
      rounds: runs.map((run) => round(run.wallMs, 1)),
      passed: runs.every((run) => run.ok),
      counts: last.counts,
      failed: last.failed,
      slowest: last.slowest,
    };
  } finally {
    await server.shutdown();
  }
}
