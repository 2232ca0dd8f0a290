/**
 * The endpoint pairs again, each in one process over in-memory sockets (inprocess/worker.mjs):
 * the CPU a request costs questkit against the hand-written endpoint in the same framework, with
 * no kernel or load generator in the figures. A stricter and steadier ratio than the loopback
 * pairs', for telling a change of a few percent from noise; it has a floor of its own.
 */
import { runNodeScript } from '../lib/proc.mjs';
import { median, ratio, round } from '../lib/stats.mjs';
import { FRAMEWORKS, unavailable } from './endpoints.mjs';

/** The floor in process, on Node 22, 24 and 26: at most 1.25 of the hand-written CPU a request. */
export const CPU_CEILING = 1.25;

/** Requests a variant answers in one round of the full run (a quick run divides them by 20). */
const REQUESTS_PER_ROUND = 20_000;

/** `options`: { mode, rounds, select(id), log }. */
export async function runInProcessSuite(options) {
  const perRound = options.mode === 'quick' ? REQUESTS_PER_ROUND / 20 : REQUESTS_PER_ROUND;
  // Enough rounds for a median that holds: each lasts under a second.
  const rounds = Math.max(16, options.rounds * 4);
  const pairs = [];
  for (const framework of FRAMEWORKS) {
    if (!options.select(`inprocess:${framework.id}`)) continue;
    const missing = await unavailable(framework);
    if (missing) {
      pairs.push(missing);
      continue;
    }
    let runs;
    try {
      const output = await runNodeScript(
        'inprocess/worker.mjs',
        [framework.module, String(perRound), String(rounds), ...framework.args],
        // A pair takes 10 s to 2 min here (Express on Node 22 the longest): ten is a hang.
        { timeoutMs: 10 * 60_000 },
      );
      runs = JSON.parse(output.trim().split('\n').at(-1));
    } catch (error) {
      // One pair that fails (a wrong answer, a hang) is reported, and the others still run.
      const reason = `failed: ${error?.message ?? error}`;
      options.log(`  ${framework.label}: ${reason}`);
      pairs.push({ id: framework.id, label: framework.label, available: false, reason });
      continue;
    }
    const questkit = round(median(runs.questkit), 2);
    const handWritten = round(median(runs['hand-written']), 2);
    const cpuRatio = round(ratio(questkit, handWritten), 3);
    options.log(
      `  ${framework.label}: ${questkit} against ${handWritten} µs a request (${cpuRatio})`,
    );
    pairs.push({
      id: framework.id,
      label: framework.label,
      available: true,
      cpuMicrosPerRequest: { questkit, handWritten },
      cpuRatio,
      meetsFloor: cpuRatio <= CPU_CEILING,
      roundRatios: runs.questkit.map((value, index) =>
        round(ratio(value, runs['hand-written'][index]), 2),
      ),
    });
  }
  return { requestsPerRound: perRound, rounds, ceiling: CPU_CEILING, pairs };
}
