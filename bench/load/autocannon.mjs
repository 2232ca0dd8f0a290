/**
 * The load generator: one long-lived process on the load core, driven over IPC so that no round
 * pays for starting Node and loading autocannon.
 *   <- { type: 'run', config }  -> { type: 'result', result } or { type: 'error', message }
 * `config`: { url, method, headers, body?, paths?, bodies?, connections, duration }. The result carries
 * throughput, latency percentiles, failures and the load process's own CPU share (near 1 would
 * mean the load, not the server, set the pace).
 */
import autocannon from 'autocannon';
import { monotonicNow, resourceStats } from '../lib/resources.mjs';

if (!process.send) {
  console.error('load/autocannon.mjs is driven over IPC by lib/proc.mjs');
  process.exit(2);
}

process.on('message', async (message) => {
  if (message?.type !== 'run') return;
  try {
    process.send({ type: 'result', result: await run(message.config) });
  } catch (error) {
    process.send({ type: 'error', message: String(error?.message ?? error) });
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ type: 'ready' });

async function run(config) {
  let next = 0;
  const { paths, bodies } = config;
  const requests =
    paths || bodies
      ? [
          {
            method: config.method,
            headers: config.headers,
            body: config.body,
            // Spread the load over many resources (user ids, lookups, claiming members) instead
            // of one hot key.
            setupRequest: (request) => {
              const index = next++;
              if (paths) request.path = paths[index % paths.length];
              if (bodies) request.body = bodies[index % bodies.length];
              return request;
            },
          },
        ]
      : undefined;

  const cpuBefore = resourceStats().cpuMs;
  const startedAt = monotonicNow();
  const result = await autocannon({
    url: config.url,
    method: config.method,
    headers: config.headers,
    body: config.body,
    requests,
    connections: config.connections,
    duration: config.duration,
    // autocannon stops at its sampling tick: a 250 ms tick keeps short (quick) rounds short.
    sampleInt: 250,
    timeout: 10,
  });
  const wallMs = monotonicNow() - startedAt;
  const cpuMs = resourceStats().cpuMs - cpuBefore;
  return {
    requestsPerSecond: result.requests.total / result.duration,
    totalRequests: result.requests.total,
    durationSeconds: result.duration,
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, avg: result.latency.average },
    status2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    loadCpuShare: cpuMs / wallMs,
  };
}
