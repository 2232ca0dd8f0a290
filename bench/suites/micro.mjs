/** Core micro-benchmarks (mitata), in their own process pinned to the server core. */
import { runNodeScript } from '../lib/proc.mjs';

/** Every micro-benchmark case id, in report order (see micro/worker.mjs). */
export const MICRO_CASES = [
  'decide-valid',
  'decide-invalid',
  'api-key-1',
  'api-key-5',
  'schema-parse',
  'verify-signed-url',
  'build-connect-callback',
  'state-token',
];

/** Runs the selected cases; `options`: { microBudgetMs, rounds, select(id), log }. */
export async function runMicroSuite(options) {
  const ids = MICRO_CASES.filter((id) => options.select(`micro:${id}`));
  if (ids.length === 0) return { cases: [] };
  options.log(`  ${ids.length} cases, ${options.microBudgetMs} ms each per round`);
  // Each round times each case and its reference, plus mitata's warm-up.
  const expectedMs = ids.length * 2 * options.rounds * options.microBudgetMs * 3;
  const output = await runNodeScript(
    'micro/worker.mjs',
    [String(options.microBudgetMs), String(options.rounds), ids.join(',')],
    { nodeFlags: ['--expose-gc'], timeoutMs: expectedMs + 120_000 },
  );
  return JSON.parse(output.trim().split('\n').at(-1));
}
