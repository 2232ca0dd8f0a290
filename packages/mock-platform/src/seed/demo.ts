import { levelForXp } from '../levels.js';
import type { InviteRecord, UserRecord } from '../store/records.js';
import { loadSnapshot, parseSnapshot } from '../store/snapshot.js';
import type { Store, StoreSnapshot } from '../store/store.js';
import fixture from './demo.json';
import { DEMO, generatedUserId } from './demo-ids.js';
import { createPrng } from './prng.js';

// The demo is data: `demo.json` is a fixtures file (the `--fixtures` format) with both communities
// and every named record. Only the many generated members are made here, from a fixed seed, so the
// demo is the same on every run and machine.

/** Generated demo users when no number is given. */
export const DEFAULT_GENERATED_USERS = 100;

/** Options of {@link seedDemo}. */
export interface SeedDemoOptions {
  /** Generated users added to the named ones (default {@link DEFAULT_GENERATED_USERS}). */
  users?: number;
  /** The demo community's read-write API key (default `DEMO.apiKeys.readWrite`). */
  apiKey?: string;
  /** The endpoint the demo API tasks call (default `DEMO.verifyEndpoint`). */
  verifyEndpoint?: string;
}

/** What {@link seedDemo} wrote. */
export interface SeedSummary {
  namedUsers: number;
  generatedUsers: number;
}

// Generated members join one a minute from this fixed instant, after every named member.
const FIRST_JOINED = Date.parse('2025-01-07T00:00:00.000Z');
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/**
 * Generated members of the demo community: every field variant spread over them, identifiers
 * unique by construction (each embeds the index). A fixed number of draws per member, so member i
 * is the same whatever the total.
 */
function generatedMembers(
  count: number,
  inviteMinXp: number,
): { users: UserRecord[]; invites: InviteRecord[] } {
  const users: UserRecord[] = [];
  const invites: InviteRecord[] = [];
  const prng = createPrng(20250101);
  for (let i = 0; i < count; i++) {
    const xp = prng.int(0, 5000);
    const karma = prng.int(-5, 100);
    const flags = prng.int(0, 3);
    const stars = prng.int(0, 20);
    const walletTail = prng.hex(32);
    let solana = '';
    for (let k = 0; k < 44; k++) solana += BASE58[prng.int(0, BASE58.length - 1)];
    const id = generatedUserId(i);
    const wallet = i % 4 !== 3 ? `0x${i.toString(16).padStart(8, '0')}${walletTail}` : null;
    // Members 0, 4, 8... are invited: the first ones by the admin, later ones by an earlier member,
    // so no inviter collects an unbounded list.
    const inviterId = i % 4 !== 0 ? null : i < 100 ? DEMO.users.admin : generatedUserId(i >> 3);
    const createdAt = new Date(FIRST_JOINED + i * 60_000).toISOString();
    users.push({
      id,
      communityId: DEMO.communityId,
      avatar: i % 3 === 0 ? null : `https://example.com/avatars/member-${i}.png`,
      name: i % 17 === 0 ? null : `member-${i}`,
      email: i % 3 === 0 ? null : `member${i}@example.com`,
      connectedWallet: wallet,
      discordId: i % 2 === 0 ? `9${i.toString().padStart(17, '0')}` : null,
      discordHandle: i % 2 === 0 ? `member${i}` : null,
      twitterId: i % 5 !== 0 ? `18${i.toString().padStart(17, '0')}` : null,
      twitterUsername: i % 5 !== 0 ? `member_${i}` : null,
      tiktokUsername: i % 7 === 0 ? `member.${i}` : null,
      verifiedBlockchainAddresses: wallet ? { ethereum: wallet } : {},
      unVerifiedBlockchainAddresses: i % 11 === 0 ? { solana } : {},
      xp,
      rank: 0,
      level: levelForXp(xp),
      karma,
      flags,
      stars,
      role: i % 13 === 0 ? null : i % 50 === 1 ? 'reviewer' : 'guest',
      isBanned: false,
      banReason: null,
      referrerUrl: i % 9 === 0 ? 'https://example.com/newsletter' : null,
      referrerId: inviterId,
      deletedAt: null,
      restoredAt: null,
      createdAt,
      updatedAt: createdAt,
    });
    if (inviterId) {
      const status = xp < inviteMinXp ? 'pending' : i % 8 === 0 ? 'consumed' : 'active';
      invites.push({
        communityId: DEMO.communityId,
        inviterId,
        userId: id,
        status,
        joinedAt: createdAt,
        questId: status === 'consumed' ? DEMO.quests.partnership : null,
      });
    }
  }
  return { users, invites };
}

/** Ranks a community's members that are not deleted by xp, highest first (ties by id). */
function assignRanks(users: UserRecord[]): void {
  const ordered = users
    .filter((member) => member.deletedAt === null)
    .sort((a, b) => b.xp - a.xp || (a.id < b.id ? -1 : 1));
  ordered.forEach((member, index) => {
    member.rank = index + 1;
  });
}

let checkedFixture: StoreSnapshot | undefined;

/** The demo fixture with the options applied and `generated` members added after the named ones. */
function demoSnapshot(
  generated: number,
  options: SeedDemoOptions,
): { snapshot: StoreSnapshot; named: number } {
  // Checked like any fixtures file, so a bad edit of demo.json fails naming the field; once, as
  // tests seed many platforms. Each seed gets its own copy: stores keep the records they are given.
  checkedFixture ??= parseSnapshot(fixture);
  const snapshot = structuredClone(checkedFixture);
  if (options.apiKey !== undefined) {
    for (const key of snapshot.apiKeys)
      if (key.key === DEMO.apiKeys.readWrite) key.key = options.apiKey;
  }
  const endpoint = options.verifyEndpoint;
  if (endpoint !== undefined) {
    for (const quest of snapshot.quests)
      for (const task of quest.tasks)
        if (task.settings.endpoint === DEMO.verifyEndpoint)
          task.settings = { ...task.settings, endpoint, description: `Checked by ${endpoint}` };
  }
  const community = snapshot.communities.find((c) => c.id === DEMO.communityId)!;
  const { users, invites } = generatedMembers(generated, community.inviteMinXp);
  const named = snapshot.users.filter((user) => user.communityId === community.id);
  assignRanks([...named, ...users]);
  const others = snapshot.users.filter((user) => user.communityId !== community.id);
  snapshot.users = [...named, ...users, ...others];
  snapshot.invites.push(...invites);
  return { snapshot, named: named.length };
}

/**
 * Writes the deterministic demo data into an empty store: community `demo` with its modules,
 * named users covering every field variant, `users` generated members, invites in all three
 * states, quests in several modules (API tasks of every identification method), webhooks with
 * delivery records, sprints, XP entries and reviews; and a second community, `sandbox`.
 * Identifiers are in {@link DEMO}.
 *
 * @example
 * const store = createMemoryStore();
 * seedDemo(store, { users: 100_000 });
 */
export function seedDemo(store: Store, options: SeedDemoOptions = {}): SeedSummary {
  const generated = options.users ?? DEFAULT_GENERATED_USERS;
  if (!Number.isInteger(generated) || generated < 0) {
    throw new TypeError('[@questkit/mock-platform] seed users must be a non-negative integer');
  }
  if (options.apiKey !== undefined && options.apiKey.length === 0) {
    throw new TypeError('[@questkit/mock-platform] apiKey must be a non-empty string');
  }
  const { snapshot, named } = demoSnapshot(generated, options);
  loadSnapshot(store, snapshot);
  return { namedUsers: named, generatedUsers: generated };
}
