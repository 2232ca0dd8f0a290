/**
 * `@questkit/client` against a bare `fetch` of the same route (`GET /users/{userId}`) on the mock
 * platform: the mock in its own process on the server core, the calls from a worker on the load
 * core, the variants interleaved in each round. Target: client calls per second / bare >= 0.90.
 */
import { requireExports } from '../lib/available.mjs';
import { LOAD_CORE, runNodeScript, startServer } from '../lib/proc.mjs';
import { median, ratio, round } from '../lib/stats.mjs';

const USERS = 1_000;
const SAMPLES = 200;

/** `options`: { mockDuration, rounds, log }. */
export async function runClientSuite(options) {
  const found = await requireExports('@questkit/client', ['createClient']);
  if (!found.ok) return { available: false, reason: found.reason };
  const server = await startServer({ module: 'mock', args: [String(USERS), String(SAMPLES)] });
  try {
    const userIds = server.info.paths['user-by-id'].map((path) => path.split('/').at(-1));
    const output = await runNodeScript(
      'client/worker.mjs',
      [
        String(server.port),
        String(options.mockDuration),
        String(options.rounds),
        JSON.stringify(userIds),
      ],
      { core: LOAD_CORE, timeoutMs: (options.rounds * 4 + 2) * (options.mockDuration + 5) * 1000 },
    );
    const runs = JSON.parse(output.trim().split('\n').at(-1));
    const summary = (list) => ({
      callsPerSecond: round(median(list.map((r) => r.callsPerSecond)), 1),
      clientCpuMicrosPerCall: round(median(list.map((r) => r.clientCpuMicrosPerCall)), 1),
      rounds: list.map((r) => round(r.callsPerSecond, 1)),
    });
    const bare = summary(runs.bare);
    const bareWithTimeout = summary(runs.bareWithTimeout);
    const client = summary(runs.client);
    const noValidate = summary(runs.noValidate);
    options.log(
      `    bare ${Math.round(bare.callsPerSecond)}/s, client ${Math.round(client.callsPerSecond)}/s, without validation ${Math.round(noValidate.callsPerSecond)}/s`,
    );
    return {
      route: 'GET /public/communities/demo/users/{userId}',
      bare,
      bareWithTimeout,
      client,
      noValidate,
      ratio: round(ratio(client.callsPerSecond, bare.callsPerSecond), 3),
      ratioNoValidate: round(ratio(noValidate.callsPerSecond, bare.callsPerSecond), 3),
      ratioSameTimeout: round(ratio(client.callsPerSecond, bareWithTimeout.callsPerSecond), 3),
      cpuRatio: round(ratio(client.clientCpuMicrosPerCall, bare.clientCpuMicrosPerCall), 3),
    };
  } finally {
    await server.shutdown();
  }
}
