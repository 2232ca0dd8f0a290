import { streamSSE } from 'hono/streaming';
import * as z from 'zod';
import type { MockContext } from '../context.js';
import { DEMO } from '../seed/demo-ids.js';
import { matches } from '../service/recent-records.js';
import type { UserRecord } from '../store/records.js';
import { USER_IDENTIFIER_KINDS } from '../store/store.js';
import { userById } from '../views/users.js';
import { deliveryView } from '../views/webhooks.js';
import { communityNotFound } from './request.js';
import { defineControlRoute } from './route.js';

// Read-only routes for people looking at the mock (the dashboard, curl): find members by any
// identifier, list the quests that have API tasks, list deliveries, and follow verification calls
// as they happen (server-sent events).

/** Most members a search answers. */
const SEARCH_LIMIT = 20;
/** Members a name search reads before it stops: the search stays fast at 100k members. */
const NAME_SCAN_LIMIT = 200_000;
/** Most deliveries the list answers. */
const DELIVERY_LIMIT = 100;
/** The seeded demo members and quests: marked `demo: true` in the answers, members listed first. */
const DEMO_USER_IDS: readonly string[] = Object.values(DEMO.users);
const DEMO_QUEST_IDS: ReadonlySet<string> = new Set(Object.values(DEMO.quests));
/** A comment line on the event stream this often, so proxies keep it open. */
const KEEP_ALIVE_MS = 15_000;

function findMembers(context: MockContext, communityId: string, query: string): UserRecord[] {
  const { store } = context;
  const found = new Map<string, UserRecord>();
  const add = (user: UserRecord | undefined) => {
    if (user && user.communityId === communityId && found.size < SEARCH_LIMIT) {
      found.set(user.id, user);
    }
  };
  const q = query.trim();
  if (q === '') {
    // No query: the named demo members every README speaks of, then the newest members.
    for (const id of DEMO_USER_IDS) {
      const user = store.users.get(id);
      if (user?.name) add(user);
    }
    const all = [...store.users.list()].filter((user) => user.communityId === communityId);
    for (const user of all.slice(-SEARCH_LIMIT).reverse()) add(user);
    return [...found.values()];
  }
  add(store.users.get(q.toLowerCase()));
  for (const kind of USER_IDENTIFIER_KINDS) {
    const id = store.users.findIdByIdentifier(communityId, kind, q);
    if (id) add(store.users.get(id));
  }
  const name = q.toLowerCase();
  let scanned = 0;
  for (const user of store.users.list()) {
    if (found.size >= SEARCH_LIMIT || scanned++ >= NAME_SCAN_LIMIT) break;
    if (user.name?.toLowerCase().startsWith(name)) add(user);
  }
  return [...found.values()];
}

const MembersQuerySchema = z.object({
  q: z
    .string()
    .optional()
    .describe('An id, any identifier or a name prefix; absent: the demo members, then the newest.'),
});

const DeliveriesQuerySchema = z.object({
  webhookId: z.string().optional(),
  status: z.string().optional(),
});

/**
 * Members by id, any identifier or a name prefix (without `q`, the named demo members first, then
 * the newest); the quests with API tasks (both mark seeded data `demo: true`); deliveries, newest
 * first; and the claims and verification calls as they happen (server-sent events `claim` and
 * `call`).
 */
export const BROWSE_ROUTES = [
  defineControlRoute({
    method: 'GET',
    path: '/__mock/communities/{subdomain}/members',
    summary: 'Find members by id, any identifier or a name prefix (20 at most)',
    query: 'q=ada.lovelace',
    querySchema: MembersQuerySchema,
    handle: ({ params, query, c }, { context }) => {
      const { store } = context;
      const community = store.communities.getBySubdomain(params.subdomain);
      if (!community) return communityNotFound(params.subdomain);
      const members = findMembers(context, community.id, query.q ?? '');
      return c.json(
        members.map((user) => ({
          ...userById(store, user),
          demo: DEMO_USER_IDS.includes(user.id),
        })),
      );
    },
  }),
  defineControlRoute({
    method: 'GET',
    path: '/__mock/communities/{subdomain}/quests',
    summary: 'The quests that have API tasks, with their endpoints',
    handle: ({ params, c }, { context }) => {
      const community = context.store.communities.getBySubdomain(params.subdomain);
      if (!community) return communityNotFound(params.subdomain);
      const quests = context.store.quests
        .listByCommunity(community.id)
        .filter((quest) => !quest.deleted && quest.tasks.some((task) => task.type === 'api'))
        .map((quest) => ({
          id: quest.id,
          name: quest.name,
          published: quest.published,
          archived: quest.archived,
          demo: DEMO_QUEST_IDS.has(quest.id),
          recurrence: quest.recurrence,
          retryAfter: quest.retryAfter,
          conditions: quest.conditions,
          tasks: quest.tasks
            .filter((task) => task.type === 'api')
            .map((task) => ({
              id: task.id,
              endpoint: task.settings.endpoint ?? null,
              identifications: task.settings.identifications ?? [],
              redirectUrl: task.settings.redirectUrl ?? null,
            })),
        }));
      return c.json(quests);
    },
  }),
  defineControlRoute({
    method: 'GET',
    path: '/__mock/webhooks/deliveries',
    summary: 'Webhook deliveries, newest first (100 at most)',
    query: 'status=failed',
    querySchema: DeliveriesQuerySchema,
    handle: ({ query, c }, { context, service }) => {
      const { store } = context;
      const records = [...store.deliveries.list()]
        .filter((record) => matches<{ webhookId: string; status: string }>(record, query))
        .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
        .slice(0, DELIVERY_LIMIT);
      return c.json(
        records.map((record) => ({
          ...deliveryView(record),
          webhookName: store.webhooks.get(record.webhookId)?.name ?? null,
          attempts: service.deliveries.attempts(record.id).length,
          // The row shows why the last try failed, without opening the delivery.
          lastAttempt: service.deliveries.attempts(record.id).at(-1) ?? null,
        })),
      );
    },
  }),
  defineControlRoute({
    method: 'GET',
    path: '/__mock/events',
    summary: 'Claims and verification calls as they happen (server-sent events claim and call)',
    handle: ({ c }, { service }) =>
      streamSSE(c, async (stream) => {
        const queue: { event: 'call' | 'claim'; id: string; data: string }[] = [];
        let wake: (() => void) | undefined;
        const unsubscribeCalls = service.calls.subscribe((entry) => {
          queue.push({ event: 'call', id: entry.id, data: JSON.stringify(entry) });
          wake?.();
        });
        const unsubscribeClaims = service.claimJournal.subscribe((entry) => {
          queue.push({ event: 'claim', id: entry.id, data: JSON.stringify(entry) });
          wake?.();
        });
        const unsubscribe = () => {
          unsubscribeCalls();
          unsubscribeClaims();
        };
        stream.onAbort(() => {
          unsubscribe();
          wake?.();
        });
        try {
          await stream.writeSSE({ event: 'ready', data: '{}' });
          while (!stream.aborted && !stream.closed) {
            const entry = queue.shift();
            if (entry) {
              await stream.writeSSE(entry);
              continue;
            }
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, KEEP_ALIVE_MS);
              wake = () => {
                clearTimeout(timer);
                resolve();
              };
            });
            wake = undefined;
            if (queue.length === 0 && !stream.aborted) await stream.write(': keep-alive\n\n');
          }
        } finally {
          unsubscribe();
        }
      }),
  }),
];
