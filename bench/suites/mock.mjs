/**
 * Mock platform under load: with 100k seeded users, the public routes a client hits most (user by
 * id, lookup by each social identifier, the webhook and quest list pages) against the mock's
 * cheapest route in the same run, interleaved; then claims per second against a local endpoint
 * that answers at once.
 */
import { DEMO, generatedUserId } from '@questkit/mock-platform';
import { requireExports } from '../lib/available.mjs';
import { LOAD_CORE, runLoad, startServer } from '../lib/proc.mjs';
import { median, ratio, round } from '../lib/stats.mjs';

export const SEEDED_USERS = 100_000;
const SAMPLES_PER_ROUTE = 2_000;
const BASELINE = 'event-types';

/** The routes in report order; `event-types` (a constant list behind auth) is the cheapest. */
export const MOCK_ROUTES = [
  { id: 'event-types', label: 'GET /webhooks-event-types (cheapest route)' },
  { id: 'user-by-id', label: 'GET /users/{userId}' },
  { id: 'lookup-discordId', label: 'GET /users?discordId=' },
  { id: 'lookup-discordHandle', label: 'GET /users?discordHandle=' },
  { id: 'lookup-twitterId', label: 'GET /users?twitterId=' },
  { id: 'lookup-twitterUsername', label: 'GET /users?twitterUsername=' },
  { id: 'lookup-email', label: 'GET /users?email=' },
  { id: 'lookup-ethAddress', label: 'GET /users?ethAddress=' },
  { id: 'lookup-blockchainAddress', label: 'GET /users?blockchainAddress=' },
  { id: 'webhook-list', label: 'GET /webhooks?limit=100 (a full page)' },
  { id: 'quest-list', label: 'GET /quests?limit=100 (a full page)' },
];

/** `options`: { mockDuration, warmup, rounds, connections, select(id), log }. */
export async function runMockSuite(options) {
  const found = await requireExports('@questkit/mock-platform', [
    'createMockPlatform',
    'startMockServer',
  ]);
  if (!found.ok) return { available: false, reason: found.reason };

  const routes = MOCK_ROUTES.filter(
    (route) => route.id === BASELINE || options.select(`mock:${route.id}`),
  );
  // The endpoint the claims call runs beside the load: the mock keeps its core to itself.
  const endpoint = await startServer({ module: 'instant', core: LOAD_CORE });
  options.log(`  seeding ${SEEDED_USERS.toLocaleString('en-US')} users`);
  let server;
  try {
    server = await startServer({
      module: 'mock',
      args: [
        String(SEEDED_USERS),
        String(SAMPLES_PER_ROUTE),
        `http://127.0.0.1:${endpoint.port}/verify`,
      ],
      timeoutMs: 180_000,
    });
    const { paths, seedSeconds, rssAfterSeedBytes, filled } = server.info;
    const headers = { 'x-api-key': DEMO.apiKeys.readWrite };
    for (const route of routes)
      await checkRoute(server.port, paths[route.id], headers, route.label);

    const load = (route, duration) =>
      runLoad({
        url: `http://127.0.0.1:${server.port}${paths[route.id][0]}`,
        method: 'GET',
        headers,
        paths: paths[route.id].length > 1 ? paths[route.id] : undefined,
        connections: options.connections,
        duration,
      });

    // One warm-up over every route at once: JIT and caches settle for all of them.
    await runLoad({
      url: `http://127.0.0.1:${server.port}/`,
      method: 'GET',
      headers,
      paths: routes.flatMap((route) => paths[route.id].slice(0, 200)),
      connections: options.connections,
      duration: options.warmup * 2,
    });
    const rounds = new Map(routes.map((route) => [route.id, []]));
    for (let index = 0; index < options.rounds; index++) {
      for (const route of routes) {
        const before = await server.stats();
        const result = await load(route, options.mockDuration);
        const after = await server.stats();
        rounds.get(route.id).push({
          requestsPerSecond: round(result.requestsPerSecond, 1),
          p50Ms: result.latencyMs.p50,
          p99Ms: result.latencyMs.p99,
          serverCpuMicrosPerRequest: round(
            ((after.cpuMs - before.cpuMs) * 1000) / Math.max(1, result.totalRequests),
            2,
          ),
          failed: result.non2xx + result.errors + result.timeouts,
        });
        options.log(
          `    round ${index + 1} ${route.id.padEnd(24)} ${Math.round(result.requestsPerSecond)} req/s  p99 ${result.latencyMs.p99} ms`,
        );
      }
    }
    const baselineRps = median(rounds.get(BASELINE).map((r) => r.requestsPerSecond));
    const stats = await server.stats();
    return {
      seededUsers: SEEDED_USERS,
      seedSeconds: round(seedSeconds, 2),
      filled,
      baseline: MOCK_ROUTES.find((route) => route.id === BASELINE).label,
      distinctPathsPerRoute: SAMPLES_PER_ROUTE,
      durationSeconds: options.mockDuration,
      routes: routes.map((route) => {
        const list = rounds.get(route.id);
        const rps = median(list.map((r) => r.requestsPerSecond));
        return {
          id: route.id,
          label: route.label,
          requestsPerSecond: round(rps, 1),
          p50Ms: median(list.map((r) => r.p50Ms)),
          p99Ms: median(list.map((r) => r.p99Ms)),
          serverCpuMicrosPerRequest: round(median(list.map((r) => r.serverCpuMicrosPerRequest)), 2),
          ratioToBaseline: round(ratio(rps, baselineRps), 3),
          failedRequests: list.reduce((sum, r) => sum + r.failed, 0),
          rounds: list,
        };
      }),
      rssAfterSeedMb: round(rssAfterSeedBytes / 2 ** 20, 1),
      peakRssMb: round(stats.peakRssBytes / 2 ** 20, 1),
      claims: options.select('mock:claims')
        ? await runClaims(server, endpoint, options)
        : { available: false, reason: 'not selected' },
    };
  } finally {
    await server?.shutdown();
    await endpoint.shutdown();
  }
}

/** Every route must answer 200 before it is timed: a 4xx under load would measure nothing. */
async function checkRoute(port, paths, headers, label) {
  if (!paths || paths.length === 0) throw new Error(`${label}: no request path could be built`);
  for (const path of [paths[0], paths.at(-1)]) {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      headers,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    if (response.status !== 200) {
      throw new Error(`${label}: ${path} answered ${response.status} ${text.slice(0, 160)}`);
    }
  }
}

/** Sequential claims whose calls are counted exactly before the load. */
const CHECKED_CLAIMS = 5;
const DAY_MS = 24 * 3600 * 1000;

/**
 * Claims per second: `POST /__mock/.../claims`, each by a member who has not claimed the quest
 * that day (it is daily: a second claim would be refused before any call, which costs nothing;
 * each round starts a new day on the mock's manual clock), each making its verification call to
 * the endpoint that answers at once. First, a few sequential
 * claims must each succeed and make exactly one call (under load, claims still in flight when a
 * round stops make calls that no answer is counted for, so the check is done here).
 */
async function runClaims(server, endpoint, options) {
  const claims = server.info.claims;
  if (!claims.available) return { available: false, reason: claims.reason };
  const url = `http://127.0.0.1:${server.port}${claims.path}`;
  // Every member claims the daily quest once a day: the pool of a round is every member, on a
  // new day of the mock's manual clock (the bench's mock runs on one).
  const pool = Array.from({ length: claims.members }, (_, index) =>
    JSON.stringify({ userId: generatedUserId(index) }),
  );
  const nextDay = async () => {
    const response = await fetch(`http://127.0.0.1:${server.port}/__mock/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ms: DAY_MS }),
      signal: AbortSignal.timeout(15_000),
    });
    if (response.status !== 200) {
      throw new Error(`moving the mock's clock answered ${response.status}`);
    }
    await response.arrayBuffer();
  };
  const request = { method: 'POST', headers: { 'content-type': 'application/json' } };
  const before = await endpoint.stats();
  for (const body of pool.slice(0, CHECKED_CLAIMS)) {
    const response = await fetch(url, { ...request, body, signal: AbortSignal.timeout(15_000) });
    const answer = await response.json().catch(() => ({}));
    if (response.status !== 200 || answer.status !== 'success') {
      return {
        available: false,
        reason: `a claim answered ${response.status} ${JSON.stringify(answer).slice(0, 200)}`,
      };
    }
  }
  const calls = (await endpoint.stats()).counters.calls - before.counters.calls;
  if (calls !== CHECKED_CLAIMS) {
    return {
      available: false,
      reason: `${CHECKED_CLAIMS} claims made ${calls} verification calls instead of one each`,
    };
  }

  const load = async (duration) => {
    await nextDay();
    const callsBefore = (await endpoint.stats()).counters.calls;
    const result = await runLoad({
      url,
      ...request,
      bodies: pool,
      connections: options.connections,
      duration,
    });
    // Past its pool a round would claim again for the same members: refusals, not claims.
    if (result.totalRequests > pool.length) {
      throw new Error(`a round made ${result.totalRequests} claims for ${pool.length} members`);
    }
    // Every answered claim made its call (claims in flight at the end may add a few more): a
    // claim refused before any call would be measured as a cheap one.
    const calls = (await endpoint.stats()).counters.calls - callsBefore;
    if (calls < result.totalRequests) {
      throw new Error(`${result.totalRequests} claims made only ${calls} verification calls`);
    }
    return result;
  };
  await load(options.warmup);
  const rounds = [];
  for (let index = 0; index < options.rounds; index++) {
    const start = await server.stats();
    const result = await load(options.mockDuration);
    const end = await server.stats();
    rounds.push({
      claimsPerSecond: round(result.requestsPerSecond, 1),
      p50Ms: result.latencyMs.p50,
      p99Ms: result.latencyMs.p99,
      claims: result.totalRequests,
      serverCpuMicrosPerClaim: round(
        ((end.cpuMs - start.cpuMs) * 1000) / Math.max(1, result.totalRequests),
        1,
      ),
      failed: result.non2xx + result.errors + result.timeouts,
    });
    options.log(
      `    round ${index + 1} claims                   ${Math.round(result.requestsPerSecond)} claims/s  p99 ${result.latencyMs.p99} ms`,
    );
  }
  return {
    label: 'POST /__mock/.../claims (one API task, endpoint answers 200 at once)',
    requestsPerSecond: round(median(rounds.map((r) => r.claimsPerSecond)), 1),
    p50Ms: median(rounds.map((r) => r.p50Ms)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
    serverCpuMicrosPerClaim: round(median(rounds.map((r) => r.serverCpuMicrosPerClaim)), 1),
    failedRequests: rounds.reduce((sum, r) => sum + r.failed, 0),
    checkedClaims: CHECKED_CLAIMS,
    rounds,
  };
}
