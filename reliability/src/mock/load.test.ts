/**
 * Load on the mock platform: autocannon in this process, the mock in a child process, loopback
 * only. A mix of public routes, reads and writes, over many connections; then the store is
 * checked through the public API: every created quest and webhook listed exactly once, deleted
 * ones gone, cursors walking every item once in order whatever the page size, counters equal to
 * records, lookups by identifier answering what the records say.
 */
import { DEMO, generatedUserId } from '@questkit/mock-platform';
import autocannon from 'autocannon';
import { describe, expect, it } from 'vitest';
import { COUNTS } from '../config.js';
import { startMock } from '../harness/server-process.js';
import { n, record } from '../report/record.js';
import { deliveryCounts, duplicates, walkQuests, walkWebhooks } from './walk.js';

const RW = DEMO.apiKeys.readWrite;
const SEED_USERS = 1_000;
const BASE = '/public/communities/demo';
const JSON_HEADERS = { 'x-api-key': RW, 'content-type': 'application/json' };
const LOAD_URI = 'http://127.0.0.1:9/load/';

/** What one connection remembers between its requests. */
interface LoadContext {
  webhookId?: string;
  deleteIt?: boolean;
}

describe('the mock platform under load', () => {
  it(`serves ${COUNTS.loadConnections} connections for ${COUNTS.loadSeconds} s: no 5xx, no dropped connection, a consistent store`, async () => {
    const mock = await startMock({ rateLimit: false, seedUsers: SEED_USERS });
    const origin = `http://127.0.0.1:${mock.port}`;
    const violations: string[] = [];
    try {
      const questsBefore = await walkQuests(origin, RW, 100);
      let seq = 0;
      const questNamesSent = new Set<string>();
      const questsCreated = new Set<string>();
      const webhookUrisSent = new Set<string>();
      const webhooksCreated = new Set<string>();
      const deletesSent = new Set<string>();
      const webhooksDeleted = new Set<string>();
      let conflicts = 0;
      const get = (path: () => string): autocannon.Request => ({
        method: 'GET',
        headers: { 'x-api-key': RW },
        setupRequest: (request) => ({ ...request, path: path() }),
      });

      const result = await autocannon({
        url: origin,
        connections: COUNTS.loadConnections,
        duration: COUNTS.loadSeconds,
        timeout: 10,
        requests: [
          get(() => BASE),
          get(() => `${BASE}/modules`),
          get(() => `${BASE}/users/${generatedUserId(seq++ % SEED_USERS)}`),
          get(() => `${BASE}/users?email=member${3 * (seq++ % 333) + 1}%40example.com`),
          get(() => `${BASE}/users/${DEMO.users.admin}/invites?page=1&page_size=100`),
          get(() => `${BASE}/reviews/users/${generatedUserId(seq++ % SEED_USERS)}`),
          get(() => `${BASE}/quests?limit=50`),
          get(() => `${BASE}/webhooks?limit=20`),
          get(() => `${BASE}/webhooks-event-types`),
          get(() => `${BASE}/webhooks/${DEMO.webhooks.joined}/events?limit=100`),
          {
            method: 'POST',
            headers: JSON_HEADERS,
            setupRequest: (request) => {
              const name = `load-${seq++}`;
              questNamesSent.add(name);
              return {
                ...request,
                path: `${BASE}/quests`,
                body: JSON.stringify({
                  categoryId: DEMO.modules.community,
                  name,
                  published: true,
                  recurrence: 'daily',
                  conditionOperator: 'AND',
                  rewards: [{ type: 'xp', value: 10 }],
                }),
              };
            },
            onResponse: (status, body) => {
              if (status === 200) questsCreated.add((JSON.parse(body) as { name: string }).name);
            },
          },
          {
            method: 'POST',
            headers: JSON_HEADERS,
            setupRequest: (request) => {
              const uri = `${LOAD_URI}${seq++}`;
              webhookUrisSent.add(uri);
              return {
                ...request,
                path: `${BASE}/webhooks`,
                body: JSON.stringify({
                  name: 'load',
                  uri,
                  active: false,
                  events: ['QUEST_CLAIMED'],
                }),
              };
            },
            onResponse: (status, body, context) => {
              const ctx = context as LoadContext;
              ctx.webhookId = undefined;
              if (status === 200) {
                ctx.webhookId = (JSON.parse(body) as { id: string }).id;
                // All but one in a hundred are deleted again: the list churns, and grows towards the
                // per-community cap over the run instead of filling in its first second.
                ctx.deleteIt = webhooksCreated.size % 100 !== 0;
                webhooksCreated.add(ctx.webhookId);
              } else if (status === 409) {
                conflicts++;
              }
            },
          },
          {
            method: 'PATCH',
            headers: JSON_HEADERS,
            setupRequest: (request, context) => ({
              ...request,
              path: `${BASE}/webhooks/${(context as LoadContext).webhookId ?? DEMO.webhooks.claims}`,
              body: JSON.stringify({ name: `renamed-${seq++}` }),
            }),
          },
          {
            method: 'DELETE',
            headers: { 'x-api-key': RW },
            setupRequest: (request, context) => {
              const ctx = context as LoadContext;
              // A webhook kept, or none created: delete one that does not exist (a 404).
              const id =
                ctx.deleteIt && ctx.webhookId
                  ? ctx.webhookId
                  : '00000000-0000-4000-8000-00000000dead';
              if (id === ctx.webhookId) deletesSent.add(id);
              return { ...request, path: `${BASE}/webhooks/${id}` };
            },
            onResponse: (status, _body, context) => {
              const ctx = context as LoadContext;
              if (status === 200 && ctx.deleteIt && ctx.webhookId)
                webhooksDeleted.add(ctx.webhookId);
            },
          },
        ],
      });

      const codes = Object.entries(result.statusCodeStats ?? {})
        .map(([code, stat]) => `${(stat.count ?? 0).toLocaleString('en-US')} × ${code}`)
        .join(', ');
      if (result['5xx'] > 0) violations.push(`${result['5xx']} answers 5xx`);
      if (result.errors > 0) violations.push(`${result.errors} connection errors`);
      if (result.timeouts > 0) violations.push(`${result.timeouts} timeouts`);
      const crash = mock.crash();
      if (crash) violations.push(`mock crashed: ${JSON.stringify(crash)}`);
      for (const event of mock.onErrors)
        violations.push(`internal error: ${event.text.slice(0, 200)}`);

      // Quests: every page size walks the same items, each once, in (createdAt, id) order.
      const quests = await walkQuests(origin, RW, 100);
      const smallPages = await walkQuests(origin, RW, 7);
      if (smallPages.map((q) => q.id).join() !== quests.map((q) => q.id).join()) {
        violations.push('quest walks with page sizes 7 and 100 differ');
      }
      for (const id of duplicates(quests.map((q) => q.id)))
        violations.push(`quest ${id} listed twice`);
      for (let i = 1; i < quests.length; i++) {
        const a = quests[i - 1]!;
        const b = quests[i]!;
        if (a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id >= b.id)) {
          violations.push(`quest order broken at ${i}`);
          break;
        }
      }
      const loadQuests = quests.filter((q) => q.name.startsWith('load-'));
      for (const name of duplicates(loadQuests.map((q) => q.name)))
        violations.push(`quest ${name} created twice`);
      const listed = new Set(loadQuests.map((q) => q.name));
      for (const name of questsCreated)
        if (!listed.has(name)) violations.push(`created quest ${name} missing`);
      for (const name of listed)
        if (!questNamesSent.has(name)) violations.push(`unknown quest ${name}`);
      if (quests.length !== questsBefore.length + loadQuests.length) {
        violations.push(
          `${quests.length} quests for ${questsBefore.length} seeded and ${loadQuests.length} created`,
        );
      }

      // Webhooks: the same, through the opaque cursor; deleted ones gone, kept ones there.
      const webhooks = await walkWebhooks(origin, RW, 100);
      const smallWebhookPages = await walkWebhooks(origin, RW, 3);
      if (smallWebhookPages.map((w) => w.id).join() !== webhooks.map((w) => w.id).join()) {
        violations.push('webhook walks with page sizes 3 and 100 differ');
      }
      for (const id of duplicates(webhooks.map((w) => w.id)))
        violations.push(`webhook ${id} listed twice`);
      for (const uri of duplicates(webhooks.map((w) => w.uri)))
        violations.push(`webhook uri ${uri} twice`);
      const present = new Set(webhooks.map((w) => w.id));
      for (const id of webhooksDeleted)
        if (present.has(id)) violations.push(`deleted webhook ${id} still listed`);
      for (const id of webhooksCreated) {
        if (!deletesSent.has(id) && !present.has(id))
          violations.push(`created webhook ${id} missing`);
      }
      for (const webhook of webhooks) {
        if (webhook.uri.startsWith(LOAD_URI) && !webhookUrisSent.has(webhook.uri)) {
          violations.push(`unknown webhook ${webhook.uri}`);
        }
        const { byStatus } = await deliveryCounts(origin, RW, webhook.id);
        for (const status of ['success', 'failed', 'exhausted'] as const) {
          if ((byStatus[status] ?? 0) !== webhook[status]) {
            violations.push(
              `webhook ${webhook.id}: counter ${status} ${webhook[status]}, records ${byStatus[status] ?? 0}`,
            );
          }
        }
      }

      // Lookups by identifier answer what the records say.
      for (let i = 1; i < SEED_USERS; i += 37) {
        if (i % 3 === 0) continue;
        const byId = await fetch(`${origin}${BASE}/users/${generatedUserId(i)}`, {
          headers: { 'x-api-key': RW },
        });
        const user = (await byId.json()) as { id: string; email: string | null };
        const byEmail = await fetch(
          `${origin}${BASE}/users?email=${encodeURIComponent(user.email ?? '')}`,
          {
            headers: { 'x-api-key': RW },
          },
        );
        const found = (await byEmail.json()) as { id?: string };
        if (found.id !== user.id)
          violations.push(`email lookup of ${user.email} found ${found.id}`);
      }
      const stats = await mock.stats();
      if (stats.unhandledRejections > 0) violations.push('unhandled rejections');

      record({
        area: 'Mock platform: load',
        subject: `${COUNTS.loadConnections} connections × ${COUNTS.loadSeconds} s, 14 routes`,
        requests: result.requests.total,
        faults: 0,
        held:
          `${Math.round(result.requests.average).toLocaleString('en-US')} req/s, p99 ${result.latency.p99} ms; ` +
          `${codes}; 0 × 5xx, ${result.errors} connection errors, ${result.timeouts} timeouts; ` +
          `${n(questsCreated.size)} quests and ${n(webhooksCreated.size)} webhooks created (${n(conflicts)} refused at the ` +
          `per-community cap), ${n(webhooksDeleted.size)} deleted: afterwards every one listed exactly once or gone, ` +
          'cursor walks identical at every page size, counters equal records, lookups consistent',
        violations: violations.length,
      });
    } finally {
      await mock.close();
    }
    expect(violations.slice(0, 30)).toEqual([]);
  });
});
