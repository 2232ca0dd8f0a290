/**
 * Times `@questkit/client` against a bare `fetch` of the same route on a running mock, in its own
 * process: `node client/worker.mjs <port> <seconds> <rounds> <userIdsJson>`. Each round runs the
 * variants back to back (bare fetch, bare fetch with a timeout signal, client, client without
 * validation), each round in an order rotated by one, with the same number of calls in flight;
 * prints one JSON line.
 */
import { createClient } from '@questkit/client';
import { DEMO } from '@questkit/mock-platform';

const [port, secondsArg, roundsArg, idsJson] = process.argv.slice(2);
const seconds = Number(secondsArg);
const rounds = Number(roundsArg);
const userIds = JSON.parse(idsJson);
const baseUrl = `http://127.0.0.1:${port}`;
const IN_FLIGHT = 8;

const headers = { 'x-api-key': DEMO.apiKeys.readWrite, accept: 'application/json' };
const bare = async (userId) => {
  const response = await fetch(`${baseUrl}/public/communities/demo/users/${userId}`, { headers });
  if (response.status !== 200) throw new Error(`bare fetch answered ${response.status}`);
  return response.json();
};
// The same call with the client's timeout: what a careful hand-written call would send.
const bareWithTimeout = async (userId) => {
  const response = await fetch(`${baseUrl}/public/communities/demo/users/${userId}`, {
    headers,
    signal: AbortSignal.timeout(10_000),
  });
  if (response.status !== 200) throw new Error(`bare fetch answered ${response.status}`);
  return response.json();
};
const options = { baseUrl, subdomain: 'demo', apiKey: DEMO.apiKeys.readWrite };
const client = createClient(options);
const noValidate = createClient({ ...options, validate: false });
const variants = {
  bare,
  bareWithTimeout,
  client: (userId) => client.getUser({ userId }),
  noValidate: (userId) => noValidate.getUser({ userId }),
};

/** Calls per second and this process's CPU per call, over `ms`, IN_FLIGHT calls at a time. */
async function measure(call, ms) {
  let next = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const end = started + ms;
  const lane = async () => {
    while (performance.now() < end) await call(userIds[next++ % userIds.length]);
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    callsPerSecond: (next * 1000) / wallMs,
    clientCpuMicrosPerCall: (cpu.user + cpu.system) / next,
  };
}

for (const call of Object.values(variants)) await measure(call, 500);
const results = { bare: [], bareWithTimeout: [], client: [], noValidate: [] };
// Each round starts one variant later, so that whatever slows the start of a round (the mock's
// garbage from the round before, a noisy neighbour) does not fall on the same variant each time.
const entries = Object.entries(variants);
for (let round = 0; round < rounds; round++) {
  for (let index = 0; index < entries.length; index++) {
    const [name, call] = entries[(index + round) % entries.length];
    results[name].push(await measure(call, seconds * 1000));
  }
}
process.stdout.write(`${JSON.stringify(results)}\n`);
