import { ANY_NETWORK, identifiersOf, normalizeIdentifier } from './identifiers.js';
import { createRankings } from './ranking.js';
import type {
  ApiKeyRecord,
  ClaimRecord,
  CommunityRecord,
  ConnectionRecord,
  DeliveryRecord,
  InviteRecord,
  ModuleRecord,
  QuestRecord,
  SprintRecord,
  UserRecord,
  WebhookRecord,
  XpEntryRecord,
} from './records.js';
import { createReviewStore } from './reviews.js';
import { loadSnapshot } from './snapshot.js';
import { byTimeThenId, type Compare, insertSorted, removeSorted } from './sorted.js';
import type {
  ApiKeyStore,
  ClaimStore,
  CommunityStore,
  ConnectionStore,
  DeliveryStore,
  InviteStore,
  ModuleStore,
  QuestStore,
  SprintStore,
  Store,
  StoreSnapshot,
  UserIdentifierKind,
  UserStore,
  WebhookStore,
  WebhookWriteResult,
  XpEntryStore,
} from './store.js';
import { countWrites } from './write-count.js';

// Records are stored as given and handed out by reference: callers treat them as read-only and
// write through the store, which keeps the indexes right.

const fail = (message: string): never => {
  throw new TypeError(`[@questkit/mock-platform] ${message}`);
};

function listOf<V>(map: Map<string, V[]>, key: string): V[] {
  let list = map.get(key);
  if (!list) {
    list = [];
    map.set(key, list);
  }
  return list;
}

function createCommunityStore(): CommunityStore {
  const byId = new Map<string, CommunityRecord>();
  const bySubdomain = new Map<string, CommunityRecord>();
  return {
    get: (id) => byId.get(id),
    getBySubdomain: (subdomain) => bySubdomain.get(subdomain),
    list: () => [...byId.values()],
    put(record) {
      const holder = bySubdomain.get(record.subdomain);
      if (holder && holder.id !== record.id) {
        fail(`community subdomain "${record.subdomain}" is already used by ${holder.id}`);
      }
      const previous = byId.get(record.id);
      if (previous) bySubdomain.delete(previous.subdomain);
      byId.set(record.id, record);
      bySubdomain.set(record.subdomain, record);
    },
  };
}

function createApiKeyStore(): ApiKeyStore {
  const byId = new Map<string, ApiKeyRecord>();
  return {
    list: () => [...byId.values()],
    listByCommunity: (communityId) =>
      [...byId.values()].filter((key) => key.communityId === communityId),
    put(record) {
      byId.set(record.id, record);
    },
    delete: (id) => byId.delete(id),
  };
}

const byPosition: Compare<ModuleRecord> = (a, b) =>
  a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function createModuleStore(): ModuleStore {
  const byId = new Map<string, ModuleRecord>();
  const byCommunity = new Map<string, ModuleRecord[]>();
  return {
    get: (id) => byId.get(id),
    listByCommunity: (communityId) => byCommunity.get(communityId) ?? [],
    put(record) {
      const previous = byId.get(record.id);
      if (previous) removeSorted(listOf(byCommunity, previous.communityId), previous, byPosition);
      byId.set(record.id, record);
      insertSorted(listOf(byCommunity, record.communityId), record, byPosition);
    },
  };
}

function createUserStore(): UserStore {
  const byId = new Map<string, UserRecord>();
  // One map per community and identifier kind (and network for addresses), value -> user id:
  // one hash lookup per query, whatever the number of members.
  const indexes = new Map<string, Map<string, string>>();
  const activeCounts = new Map<string, number>();
  const rankings = createRankings(() => byId.values());
  const indexOf = (communityId: string, kind: UserIdentifierKind, network: string) => {
    const name = `${communityId}\u0001${kind}\u0001${network}`;
    let index = indexes.get(name);
    if (!index) {
      index = new Map();
      indexes.set(name, index);
    }
    return index;
  };
  const countActive = (user: UserRecord | undefined, delta: number) => {
    if (!user || user.deletedAt !== null) return;
    activeCounts.set(user.communityId, (activeCounts.get(user.communityId) ?? 0) + delta);
  };
  return {
    get: (id) => byId.get(id),
    findIdByIdentifier(communityId, kind, value, network) {
      const where = kind === 'blockchainAddress' ? (network ?? ANY_NETWORK) : '';
      return indexes
        .get(`${communityId}\u0001${kind}\u0001${where}`)
        ?.get(normalizeIdentifier(kind, value));
    },
    put(record) {
      const identifiers = identifiersOf(record).map((identifier) => ({
        index: indexOf(record.communityId, identifier.kind, identifier.network),
        ...identifier,
      }));
      for (const { index, kind, value } of identifiers) {
        const holder = index.get(value);
        if (holder !== undefined && holder !== record.id) {
          fail(`user ${record.id} has the same ${kind} as user ${holder} of the same community`);
        }
      }
      const previous = byId.get(record.id);
      if (previous) {
        for (const { kind, network, value } of identifiersOf(previous)) {
          indexOf(previous.communityId, kind, network).delete(value);
        }
        countActive(previous, -1);
      }
      for (const { index, value } of identifiers) index.set(value, record.id);
      byId.set(record.id, record);
      countActive(record, 1);
      rankings.changed(previous, record);
    },
    countActive: (communityId) => activeCounts.get(communityId) ?? 0,
    listRanked: rankings.ranked,
    getRank: rankings.rankOf,
    list: () => byId.values(),
    get size() {
      return byId.size;
    },
  };
}

const byJoinedAt: Compare<InviteRecord> = (a, b) =>
  Date.parse(a.joinedAt) - Date.parse(b.joinedAt) ||
  (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0);

function createInviteStore(): InviteStore {
  const byInviter = new Map<string, InviteRecord[]>();
  return {
    listByInviter: (inviterId) => byInviter.get(inviterId) ?? [],
    put(record) {
      const list = listOf(byInviter, record.inviterId);
      const index = list.findIndex((invite) => invite.userId === record.userId);
      if (index >= 0) list.splice(index, 1);
      insertSorted(list, record, byJoinedAt);
    },
    *list() {
      for (const invites of byInviter.values()) yield* invites;
    },
  };
}

const questOrder = byTimeThenId<QuestRecord>((quest) => quest.createdAt);

function createQuestStore(): QuestStore {
  const byId = new Map<string, QuestRecord>();
  const byCommunity = new Map<string, QuestRecord[]>();
  const put = (record: QuestRecord) => {
    const previous = byId.get(record.id);
    if (previous) removeSorted(listOf(byCommunity, previous.communityId), previous, questOrder);
    byId.set(record.id, record);
    insertSorted(listOf(byCommunity, record.communityId), record, questOrder);
  };
  return {
    get: (id) => byId.get(id),
    listByCommunity: (communityId) => byCommunity.get(communityId) ?? [],
    put,
    update(id, patch) {
      const previous = byId.get(id);
      if (!previous) return false;
      put({ ...previous, ...patch, id, communityId: previous.communityId });
      return true;
    },
  };
}

/** The form of a uri compared for conflicts: `HTTP://A.example` and `http://a.example/` are one. */
function uriKey(uri: string): string {
  try {
    return new URL(uri).href;
  } catch {
    return uri;
  }
}

const webhookOrder = byTimeThenId<WebhookRecord>((webhook) => webhook.createdAt);
const deliveryOrder: Compare<DeliveryRecord> = (a, b) =>
  -byTimeThenId<DeliveryRecord>((delivery) => delivery.createdAt)(a, b);

function createDeliveryStore(): DeliveryStore {
  const byId = new Map<string, DeliveryRecord>();
  const byWebhook = new Map<string, DeliveryRecord[]>();
  return {
    get: (id) => byId.get(id),
    listByWebhook: (webhookId) => byWebhook.get(webhookId) ?? [],
    put(record) {
      const previous = byId.get(record.id);
      if (previous) removeSorted(listOf(byWebhook, previous.webhookId), previous, deliveryOrder);
      byId.set(record.id, record);
      insertSorted(listOf(byWebhook, record.webhookId), record, deliveryOrder);
    },
    deleteByWebhook(webhookId) {
      const list = byWebhook.get(webhookId) ?? [];
      for (const delivery of list) byId.delete(delivery.id);
      byWebhook.delete(webhookId);
      return list.length;
    },
    list: () => byId.values(),
  };
}

function createWebhookStore(deliveries: DeliveryStore): WebhookStore {
  const byId = new Map<string, WebhookRecord>();
  const byCommunity = new Map<string, WebhookRecord[]>();
  const byUri = new Map<string, string>();
  const uriIndex = (record: Pick<WebhookRecord, 'communityId' | 'uri'>) =>
    `${record.communityId}\u0001${uriKey(record.uri)}`;
  return {
    get: (id) => byId.get(id),
    listByCommunity: (communityId) => byCommunity.get(communityId) ?? [],
    create(record, maxPerCommunity): WebhookWriteResult {
      const holder = byUri.get(uriIndex(record));
      if (holder !== undefined && holder !== record.id) return { ok: false, conflict: 'uri-taken' };
      const list = listOf(byCommunity, record.communityId);
      if (list.length >= maxPerCommunity) return { ok: false, conflict: 'limit-reached' };
      byId.set(record.id, record);
      byUri.set(uriIndex(record), record.id);
      insertSorted(list, record, webhookOrder);
      return { ok: true, record };
    },
    update(id, patch) {
      const previous = byId.get(id);
      if (!previous) return undefined;
      const next: WebhookRecord = {
        ...previous,
        ...patch,
        id,
        communityId: previous.communityId,
        createdAt: previous.createdAt,
      };
      const holder = byUri.get(uriIndex(next));
      if (holder !== undefined && holder !== id) return { ok: false, conflict: 'uri-taken' };
      byUri.delete(uriIndex(previous));
      byUri.set(uriIndex(next), id);
      const list = listOf(byCommunity, previous.communityId);
      const index = list.indexOf(previous);
      list[index] = next;
      byId.set(id, next);
      return { ok: true, record: next };
    },
    delete(id) {
      const previous = byId.get(id);
      if (!previous) return false;
      byId.delete(id);
      byUri.delete(uriIndex(previous));
      removeSorted(listOf(byCommunity, previous.communityId), previous, webhookOrder);
      deliveries.deleteByWebhook(id);
      return true;
    },
  };
}

function createConnectionStore(): ConnectionStore {
  const byUser = new Map<string, ConnectionRecord[]>();
  return {
    listByUser: (userId) => byUser.get(userId) ?? [],
    put(record) {
      const list = listOf(byUser, record.userId);
      const index = list.findIndex((item) => item.redirectUrl === record.redirectUrl);
      if (index >= 0) list[index] = record;
      else list.push(record);
    },
    deleteByUser(userId, redirectUrl) {
      const list = byUser.get(userId) ?? [];
      const kept =
        redirectUrl === undefined ? [] : list.filter((c) => c.redirectUrl !== redirectUrl);
      if (kept.length === 0) byUser.delete(userId);
      else byUser.set(userId, kept);
      return list.length - kept.length;
    },
    *list() {
      for (const list of byUser.values()) yield* list;
    },
  };
}

function createClaimStore(): ClaimStore {
  // One map keyed by both ids: a member's claims of a quest is one lookup.
  const byKey = new Map<string, ClaimRecord>();
  const key = (userId: string, questId: string) => `${userId} ${questId}`;
  return {
    get: (userId, questId) => byKey.get(key(userId, questId)),
    put(record) {
      byKey.set(key(record.userId, record.questId), record);
    },
    list: () => byKey.values(),
  };
}

const entryOrder = byTimeThenId<XpEntryRecord>((entry) => entry.createdAt);

function createXpEntryStore(): XpEntryStore {
  const all: XpEntryRecord[] = [];
  const byCommunity = new Map<string, XpEntryRecord[]>();
  const byReceiver = new Map<string, XpEntryRecord[]>();
  return {
    listByCommunity: (communityId) => byCommunity.get(communityId) ?? [],
    listByReceiver: (userId) => byReceiver.get(userId) ?? [],
    put(record) {
      all.push(record);
      insertSorted(listOf(byCommunity, record.communityId), record, entryOrder);
      insertSorted(listOf(byReceiver, record.receiverId), record, entryOrder);
    },
    list: () => all.values(),
  };
}

const sprintOrder = byTimeThenId<SprintRecord>((sprint) => sprint.startingAt);

function createSprintStore(): SprintStore {
  const byId = new Map<string, SprintRecord>();
  const byCommunity = new Map<string, SprintRecord[]>();
  return {
    get: (id) => byId.get(id),
    listByCommunity: (communityId) => byCommunity.get(communityId) ?? [],
    put(record) {
      const start = Date.parse(record.startingAt);
      const end = Date.parse(record.endingAt);
      if (!(end > start)) fail(`sprint ${record.id} ends before it starts`);
      const list = listOf(byCommunity, record.communityId);
      const other = list.find(
        (sprint) =>
          sprint.id !== record.id &&
          Date.parse(sprint.startingAt) < end &&
          start < Date.parse(sprint.endingAt),
      );
      if (other) fail(`sprint ${record.id} overlaps sprint ${other.id}: one sprint runs at a time`);
      const previous = byId.get(record.id);
      if (previous) removeSorted(listOf(byCommunity, previous.communityId), previous, sprintOrder);
      byId.set(record.id, record);
      insertSorted(list, record, sprintOrder);
    },
  };
}

/**
 * The embedded store: everything in memory, every lookup by id or identifier one hash lookup.
 * Given a snapshot (from fixtures or `snapshot()`), starts with that state.
 *
 * @example
 * const store = createMemoryStore();
 * seedDemo(store, { users: 1000 });
 * const platform = createMockPlatform({ store });
 */
export function createMemoryStore(initial?: StoreSnapshot): Store {
  let version = 0;
  const counted = <T extends object>(part: T) =>
    countWrites(part, () => {
      version += 1;
    });
  const deliveries = createDeliveryStore();
  const store: Store = {
    communities: counted(createCommunityStore()),
    apiKeys: counted(createApiKeyStore()),
    modules: counted(createModuleStore()),
    users: counted(createUserStore()),
    invites: counted(createInviteStore()),
    quests: counted(createQuestStore()),
    webhooks: counted(createWebhookStore(deliveries)),
    deliveries: counted(deliveries),
    connections: counted(createConnectionStore()),
    claims: counted(createClaimStore()),
    reviews: counted(createReviewStore()),
    xpEntries: counted(createXpEntryStore()),
    sprints: counted(createSprintStore()),
    get version() {
      return version;
    },
    snapshot() {
      const snapshot: StoreSnapshot = {
        version: 1,
        communities: [...store.communities.list()],
        apiKeys: [...store.apiKeys.list()],
        modules: store.communities.list().flatMap((c) => store.modules.listByCommunity(c.id)),
        // The rank saved is the leaderboard's, whatever the record held.
        users: [...store.users.list()].map((user) => ({
          ...user,
          rank: store.users.getRank(user),
        })),
        invites: [...store.invites.list()],
        quests: store.communities.list().flatMap((c) => store.quests.listByCommunity(c.id)),
        webhooks: store.communities.list().flatMap((c) => store.webhooks.listByCommunity(c.id)),
        deliveries: [...store.deliveries.list()],
        connections: [...store.connections.list()],
        claims: [...store.claims.list()],
        reviews: [...store.reviews.list()],
        reviewEvents: [...store.reviews.listEvents()],
        xpEntries: [...store.xpEntries.list()],
        sprints: store.communities.list().flatMap((c) => store.sprints.listByCommunity(c.id)),
      };
      return structuredClone(snapshot);
    },
  };
  if (initial) loadSnapshot(store, initial);
  return store;
}
