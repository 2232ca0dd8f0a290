/**
 * The mock platform under load: `start([users, samplesPerRoute])` seeds the demo community with
 * that many generated users (rate limit off: the bench measures the mock, not its 429s), fills the
 * webhook and quest lists to a full page, and returns with `info` the request paths of every route
 * (ids and identifiers read from the store, so every request finds its member). With a third
 * argument, the URL of an endpoint that answers at once, it also prepares a quest to claim.
 */
import {
  createManualClock,
  createMockPlatform,
  DEMO,
  generatedUserId,
  startMockServer,
} from '@questkit/mock-platform';
import { API_KEY } from '../lib/claim.mjs';
import { resourceStats } from '../lib/resources.mjs';

const PREFIX = `/public/communities/${DEMO.subdomain}`;
/** Items per page of the list routes, and the number of items each list is filled to. */
export const PAGE_SIZE = 100;

export async function start([usersArg, samplesArg, claimEndpoint]) {
  const users = Number(usersArg);
  const samples = Number(samplesArg);
  const seedStarted = performance.now();
  // A manual clock: the claims suite moves it a day before each round, so every member may claim
  // the daily quest again (POST /__mock/clock/advance).
  const platform = createMockPlatform({
    seed: { users },
    rateLimit: false,
    clock: createManualClock(),
  });
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const headers = { 'x-api-key': DEMO.apiKeys.readWrite, 'content-type': 'application/json' };
  const filled = {
    webhooks: await fill(platform, headers, '/webhooks', (n) => ({
      name: `bench webhook ${n}`,
      uri: `http://127.0.0.1:9/hook/${n}`,
      active: false,
      events: ['JOINED_COMMUNITY'],
    })),
    quests: await fill(platform, headers, '/quests', (n) => ({
      categoryId: DEMO.modules.community,
      name: `Bench quest ${n}`,
      published: true,
      recurrence: 'daily',
      conditionOperator: 'AND',
    })),
  };
  const claims = claimEndpoint
    ? await prepareClaims(platform, headers, claimEndpoint, users)
    : { available: false, reason: 'no endpoint to call' };
  const server = await startMockServer(platform, { port: 0 });
  return {
    port: server.port,
    close: () => server.close(),
    info: {
      seedSeconds,
      rssAfterSeedBytes: resourceStats().rssBytes,
      filled,
      paths: routePaths(platform.store, users, samples),
      claims,
    },
  };
}

/**
 * Creates items through the public API until a list of `PAGE_SIZE` is full (or the mock refuses:
 * its per-community limits stay in force). Returns how many the list holds.
 */
async function fill(platform, headers, path, body) {
  const url = `http://mock${PREFIX}${path}`;
  const count = async () => {
    const response = await platform.fetch(new Request(`${url}?limit=${PAGE_SIZE}`, { headers }));
    const page = await response.json();
    return (Array.isArray(page) ? page : (page.items ?? [])).length;
  };
  let have = await count();
  for (let n = have; n < PAGE_SIZE; n++) {
    const response = await platform.fetch(
      new Request(url, { method: 'POST', headers, body: JSON.stringify(body(n)) }),
    );
    if (response.status !== 200) break;
    have++;
  }
  return await count();
}

/** Spread over the generated members, deterministic: every `stride`-th one from a fixed start. */
function sampleMembers(store, users, samples, has) {
  const members = [];
  const stride = Math.max(1, Math.floor(users / samples)) | 1;
  for (let i = 0, index = 7 % users; members.length < samples && i < users * 2; i++) {
    const member = store.users.get(generatedUserId(index));
    if (member && member.deletedAt === null && has(member)) members.push(member);
    index = (index + stride) % users;
  }
  return members;
}

function routePaths(store, users, samples) {
  const lookup = (parameter, value) => (member) => {
    const found = value(member);
    return found ? `${PREFIX}/users?${parameter}=${encodeURIComponent(found)}` : null;
  };
  const perMember = {
    'user-by-id': (member) => `${PREFIX}/users/${member.id}`,
    'lookup-discordId': lookup('discordId', (m) => m.discordId),
    'lookup-discordHandle': lookup('discordHandle', (m) => m.discordHandle),
    'lookup-twitterId': lookup('twitterId', (m) => m.twitterId),
    'lookup-twitterUsername': lookup('twitterUsername', (m) => m.twitterUsername),
    'lookup-email': lookup('email', (m) => m.email),
    'lookup-ethAddress': lookup('ethAddress', (m) => m.connectedWallet),
    'lookup-blockchainAddress': lookup(
      'blockchainAddress',
      (m) => Object.values(m.verifiedBlockchainAddresses ?? {})[0],
    ),
  };
  const paths = {
    'event-types': [`${PREFIX}/webhooks-event-types`],
    'webhook-list': [`${PREFIX}/webhooks?limit=${PAGE_SIZE}`],
    'quest-list': [`${PREFIX}/quests?limit=${PAGE_SIZE}`],
  };
  for (const [route, toPath] of Object.entries(perMember)) {
    paths[route] = sampleMembers(store, users, samples, (member) => toPath(member) !== null).map(
      toPath,
    );
  }
  return paths;
}

/**
 * A published quest whose one API task (no identification method) calls `endpoint` with the
 * bench key, and the claim request to send. Webhooks of claim events are switched off: a claim
 * waits for its deliveries' first try, and the bench measures claims, not webhook receivers.
 */
async function prepareClaims(platform, headers, endpoint, users) {
  if (typeof platform.service?.claims?.claim !== 'function') {
    return {
      available: false,
      reason: '@questkit/mock-platform has no service side (service.claims) in its build yet',
    };
  }
  const api = (method, path, body) =>
    platform.fetch(
      new Request(`http://mock${PREFIX}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
  const created = await api('POST', '/quests', {
    categoryId: DEMO.modules.community,
    name: 'Bench claims',
    published: true,
    recurrence: 'daily',
    conditionOperator: 'AND',
    tasks: [{ type: 'api', settings: { endpoint, apiKey: API_KEY, identifications: [] } }],
  });
  if (created.status !== 200) {
    return {
      available: false,
      reason: `creating the quest answered ${created.status}: ${(await created.text()).slice(0, 160)}`,
    };
  }
  const quest = await created.json();
  const page = await (await api('GET', `/webhooks?limit=${PAGE_SIZE}`)).json();
  let switchedOff = 0;
  for (const webhook of page.items ?? []) {
    if (!webhook.active || !webhook.events.some((event) => event.startsWith('QUEST_CLAIM')))
      continue;
    const patched = await api('PATCH', `/webhooks/${webhook.id}`, { active: false });
    if (patched.status === 200) switchedOff++;
  }
  return {
    available: true,
    questId: quest.id,
    path: `/__mock/communities/${DEMO.subdomain}/quests/${quest.id}/claims`,
    // The quest is daily: each member claims it once, so the load spreads over the members.
    members: users,
    webhooksSwitchedOff: switchedOff,
  };
}
