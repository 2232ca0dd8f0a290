import type { RichTextNode } from '@questkit/core/api';
import { levelForXp } from '../levels.js';
import type {
  CommunityRecord,
  DeliveryRecord,
  InviteRecord,
  QuestRecord,
  SprintRecord,
  UserRecord,
  WebhookRecord,
} from '../store/records.js';
import type { Store } from '../store/store.js';
import { DEMO, generatedUserId, seedUuid } from './demo-ids.js';
import { seedDemoReviews } from './demo-reviews.js';
import { createPrng } from './prng.js';

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

// Every seeded timestamp is an offset from this fixed instant, never the clock: the seed is the
// same on every run.
const EPOCH = Date.parse('2025-01-01T00:00:00.000Z');
const at = (minutes: number) => new Date(EPOCH + minutes * 60_000).toISOString();
const DAY = 24 * 60;

function user(communityId: string, id: string, fields: Partial<UserRecord>): UserRecord {
  const createdAt = fields.createdAt ?? at(0);
  const xp = fields.xp ?? 0;
  return {
    id,
    communityId,
    avatar: null,
    name: null,
    email: null,
    connectedWallet: null,
    discordId: null,
    discordHandle: null,
    twitterId: null,
    twitterUsername: null,
    tiktokUsername: null,
    verifiedBlockchainAddresses: {},
    unVerifiedBlockchainAddresses: {},
    xp,
    rank: 0,
    level: levelForXp(xp),
    karma: 0,
    flags: 0,
    stars: 0,
    role: 'guest',
    isBanned: false,
    banReason: null,
    referrerUrl: null,
    referrerId: null,
    deletedAt: null,
    restoredAt: null,
    ...fields,
    createdAt,
    updatedAt: fields.updatedAt ?? createdAt,
  };
}

function namedUsers(): UserRecord[] {
  const c = DEMO.communityId;
  const u = DEMO.users;
  const avatar = (name: string) => `https://example.com/avatars/${name}.png`;
  return [
    user(c, u.admin, {
      name: 'ada',
      avatar: avatar('ada'),
      email: 'ada@example.com',
      connectedWallet: '0x52908400098527886E0F7030069857D2E4169EE7',
      discordId: '80351110224678912',
      discordHandle: 'ada.lovelace',
      twitterId: '1426853018373939201',
      twitterUsername: 'ada_builds',
      tiktokUsername: 'ada.tok',
      verifiedBlockchainAddresses: {
        ethereum: '0x52908400098527886E0F7030069857D2E4169EE7',
        polygon: '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
      },
      unVerifiedBlockchainAddresses: { solana: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV' },
      xp: 12500,
      karma: 42,
      flags: 1,
      stars: 17,
      role: 'admin',
      referrerUrl: 'https://example.com/blog/launch',
      createdAt: at(0),
      updatedAt: at(30 * DAY),
    }),
    user(c, u.editor, {
      name: 'ben',
      avatar: avatar('ben'),
      email: 'Ben@Example.com',
      discordId: '80351110224678913',
      discordHandle: 'ben_edits',
      unVerifiedBlockchainAddresses: { ethereum: '0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe' },
      xp: 8400,
      karma: 12,
      stars: 5,
      role: 'editor',
      createdAt: at(60),
    }),
    user(c, u.reviewer, {
      name: 'cleo',
      twitterId: '1426853018373939202',
      twitterUsername: 'cleo_reviews',
      xp: 3000,
      karma: -3,
      flags: 4,
      stars: 1,
      role: 'reviewer',
      createdAt: at(120),
    }),
    user(c, u.guest, { role: null, createdAt: at(180) }),
    user(c, u.banned, {
      name: 'eve',
      email: 'eve@example.com',
      xp: 150,
      karma: -20,
      flags: 9,
      role: 'banned',
      isBanned: true,
      banReason: 'Spam in the quest submissions',
      createdAt: at(240),
      updatedAt: at(5 * DAY),
    }),
    user(c, u.deleted, {
      name: 'finn',
      discordId: '80351110224678916',
      discordHandle: 'finn',
      xp: 900,
      createdAt: at(300),
      updatedAt: at(9 * DAY),
      deletedAt: at(9 * DAY),
    }),
    user(c, u.restored, {
      name: 'gus',
      email: 'gus@example.com',
      xp: 2200,
      referrerId: u.admin,
      referrerUrl: 'https://example.com/invite/ada',
      createdAt: at(2 * DAY),
      updatedAt: at(12 * DAY),
      restoredAt: at(12 * DAY),
    }),
    user(c, u.pendingInvitee, {
      name: 'hana',
      email: 'hana@example.com',
      xp: 20,
      referrerId: u.admin,
      createdAt: at(3 * DAY),
    }),
    user(c, u.consumedInvitee, {
      name: 'ivy',
      twitterId: '1426853018373939209',
      twitterUsername: 'ivy_quests',
      xp: 640,
      referrerId: u.admin,
      createdAt: at(4 * DAY),
    }),
    user(c, u.walletOnly, {
      name: 'jay',
      connectedWallet: '0x1db3439a222c519ab44bb1144fc28167b4fa6ee6',
      verifiedBlockchainAddresses: {
        ethereum: '0x1db3439a222c519ab44bb1144fc28167b4fa6ee6',
        base: '0x1db3439a222c519ab44bb1144fc28167b4fa6ee6',
      },
      xp: 1500,
      referrerId: u.admin,
      createdAt: at(5 * DAY),
    }),
  ];
}

function namedInvites(): InviteRecord[] {
  const invite = (
    userId: string,
    status: InviteRecord['status'],
    joinedAt: string,
    questId: string | null,
  ) => ({
    communityId: DEMO.communityId,
    inviterId: DEMO.users.admin,
    userId,
    status,
    joinedAt,
    questId,
  });
  return [
    invite(DEMO.users.restored, 'active', at(2 * DAY), null),
    invite(DEMO.users.pendingInvitee, 'pending', at(3 * DAY), null),
    invite(DEMO.users.consumedInvitee, 'consumed', at(4 * DAY), DEMO.quests.everything),
    invite(DEMO.users.walletOnly, 'active', at(5 * DAY), DEMO.quests.verifyEmail),
  ];
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/**
 * Generated members: every field variant spread over them, identifiers unique by construction
 * (each embeds the index). A fixed number of draws per member, so member i is the same whatever
 * the total.
 */
function generatedUsers(
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
    const createdAt = at(6 * DAY + i);
    users.push(
      user(DEMO.communityId, id, {
        name: i % 17 === 0 ? null : `member-${i}`,
        avatar: i % 3 === 0 ? null : `https://example.com/avatars/member-${i}.png`,
        email: i % 3 === 0 ? null : `member${i}@example.com`,
        connectedWallet: wallet,
        verifiedBlockchainAddresses: wallet ? { ethereum: wallet } : {},
        unVerifiedBlockchainAddresses: i % 11 === 0 ? { solana } : {},
        discordId: i % 2 === 0 ? `9${i.toString().padStart(17, '0')}` : null,
        discordHandle: i % 2 === 0 ? `member${i}` : null,
        twitterId: i % 5 !== 0 ? `18${i.toString().padStart(17, '0')}` : null,
        twitterUsername: i % 5 !== 0 ? `member_${i}` : null,
        tiktokUsername: i % 7 === 0 ? `member.${i}` : null,
        xp,
        karma,
        flags,
        stars,
        role: i % 13 === 0 ? null : i % 50 === 1 ? 'reviewer' : 'guest',
        referrerId: inviterId,
        referrerUrl: i % 9 === 0 ? 'https://example.com/newsletter' : null,
        createdAt,
      }),
    );
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

// Sprints and XP history (leaderboards). The running sprint ends far ahead so it runs both on
// the tests' clock (2025-06-01) and on a real clock; the past one counted one quest only.
function seedSprints(store: Store, community: CommunityRecord): void {
  const sprint = (id: string, fields: Partial<SprintRecord> & Pick<SprintRecord, 'name'>) =>
    store.sprints.put({
      id,
      communityId: community.id,
      description: null,
      image: null,
      color: null,
      rewards: null,
      rewardZone: null,
      includedQuestsIds: [],
      startingAt: at(0),
      endingAt: at(0),
      createdAt: at(80 * DAY),
      ...fields,
    });
  sprint(DEMO.sprints.past, {
    name: 'Spring sprint',
    description: 'Verify your email to climb.',
    color: '#f59e0b',
    rewardZone: 3,
    includedQuestsIds: [DEMO.quests.verifyEmail],
    startingAt: '2025-04-01T00:00:00.000Z',
    endingAt: '2025-05-01T00:00:00.000Z',
  });
  sprint(DEMO.sprints.current, {
    name: 'Founders season',
    description: 'Every quest counts.',
    image: 'https://example.com/images/founders-season.png',
    color: '#4f46e5',
    rewards: paragraph('The top 10 win a founders badge.'),
    rewardZone: 10,
    startingAt: '2025-05-15T00:00:00.000Z',
    endingAt: '2030-12-31T00:00:00.000Z',
  });
  const history: [string, number, string, string | null, string][] = [
    [
      DEMO.users.editor,
      40,
      'Verify your email',
      DEMO.quests.verifyEmail,
      '2025-04-10T10:00:00.000Z',
    ],
    [
      DEMO.users.reviewer,
      25,
      'Verify your email',
      DEMO.quests.verifyEmail,
      '2025-04-12T10:00:00.000Z',
    ],
    [DEMO.users.editor, 60, 'Community call host', null, '2025-05-20T18:00:00.000Z'],
    [
      DEMO.users.walletOnly,
      80,
      'Connect a wallet',
      DEMO.quests.connectWallet,
      '2025-05-22T09:30:00.000Z',
    ],
    [
      DEMO.users.reviewer,
      30,
      'Join the Discord',
      DEMO.quests.joinDiscord,
      '2025-05-25T14:00:00.000Z',
    ],
  ];
  history.forEach(([userId, xp, label, questId, createdAt], index) => {
    const user = store.users.get(userId);
    if (!user) return;
    store.xpEntries.put({
      id: seedUuid('50000000', index + 1),
      communityId: community.id,
      receiverId: userId,
      xp,
      label,
      description: null,
      questId,
      createdAt,
      updatedAt: createdAt,
      deleted: false,
    });
    store.users.put({ ...user, xp: user.xp + xp, level: levelForXp(user.xp + xp) });
  });
}

/** Ranks by xp, highest first (ties by id), as the all-time leaderboard. */
function assignRanks(users: UserRecord[]): void {
  const ordered = [...users].sort((a, b) => b.xp - a.xp || (a.id < b.id ? -1 : 1));
  ordered.forEach((member, index) => {
    member.rank = index + 1;
  });
}

function paragraph(text: string, link?: { text: string; href: string }): RichTextNode {
  const content: RichTextNode[] = [{ type: 'text', text }];
  if (link) {
    content.push({
      type: 'text',
      text: link.text,
      marks: [{ type: 'link', attrs: { href: link.href, target: '_blank', class: null } }],
    });
  }
  return { type: 'doc', content: [{ type: 'paragraph', content }] };
}

const xpReward = (value: number) => ({
  type: 'xp',
  operator: '=',
  value: String(value),
  chain: null,
  collection: null,
  contractAddress: null,
});

function quest(
  communityId: string,
  id: string,
  fields: Partial<QuestRecord> & Pick<QuestRecord, 'name' | 'categoryId' | 'createdAt'>,
): QuestRecord {
  const claimCount = fields.claimCount ?? 0;
  return {
    id,
    communityId,
    // The quest list's description is not nullable: every seeded quest has one.
    description: paragraph(`${fields.name}.`),
    deleted: false,
    archived: false,
    published: true,
    autoValidate: true,
    conditionOperator: 'AND',
    conditions: [],
    recurrence: 'daily',
    retryAfter: 0,
    rewards: [xpReward(100)],
    tasks: [],
    claimLimit: 0,
    position: null,
    sprintId: null,
    isAutomaticWhenEmpty: true,
    claimCount,
    claimCounter: claimCount,
    claimCounterRefreshedAt: null,
    updatedAt: fields.createdAt,
    ...fields,
  };
}

function demoQuests(endpoint: string): QuestRecord[] {
  const c = DEMO.communityId;
  const q = DEMO.quests;
  const m = DEMO.modules;
  const apiTask = (n: number, title: string, settings: Record<string, unknown>) => ({
    id: seedUuid('50000000', n),
    type: 'api',
    metadata: null,
    settings: { title, description: `Checked by ${endpoint}`, endpoint, ...settings },
  });
  return [
    quest(c, q.verifyEmail, {
      name: 'Verify your email',
      categoryId: m.onboarding,
      description: paragraph('Verify your email to ', {
        text: 'get started',
        href: 'https://example.com/start',
      }),
      tasks: [apiTask(1, 'Email check', { apiKey: DEMO.taskApiKey, identifications: ['email'] })],
      claimCount: 57,
      position: 0,
      createdAt: at(10 * DAY),
    }),
    quest(c, q.connectWallet, {
      name: 'Connect your wallet',
      categoryId: m.onboarding,
      conditions: [{ type: 'level', operator: '>=', value: '2' }],
      tasks: [
        apiTask(2, 'Wallet check', {
          apiKey: DEMO.taskApiKey,
          identifications: ['wallet'],
          network: 'eth-mainnet',
        }),
      ],
      rewards: [
        xpReward(250),
        {
          type: 'nft',
          operator: '=',
          value: '1',
          chain: 'polygon',
          collection: 'Demo Badges',
          contractAddress: '0x2953399124F0cBB46d2CbACD8A89cF0599974963',
        },
      ],
      claimCount: 31,
      position: 1,
      createdAt: at(10 * DAY + 60),
    }),
    quest(c, q.joinDiscord, {
      name: 'Join our Discord',
      categoryId: m.community,
      tasks: [
        apiTask(3, 'Discord check', { apiKey: DEMO.taskApiKey, identifications: ['discord'] }),
      ],
      claimCount: 12,
      createdAt: at(10 * DAY + 120),
    }),
    quest(c, q.followOnX, {
      name: 'Follow us on X',
      categoryId: m.community,
      // No apiKey: the verification call goes without X-Api-Key.
      tasks: [apiTask(4, 'Twitter check', { identifications: ['twitter'] })],
      retryAfter: 3600,
      createdAt: at(10 * DAY + 180),
    }),
    quest(c, q.partnerConnect, {
      name: 'Connect your partner account',
      categoryId: m.partners,
      tasks: [
        apiTask(5, 'Partner account', {
          apiKey: DEMO.taskApiKey,
          identifications: ['svc-connect'],
          redirectUrl: DEMO.connectRedirectUrl,
        }),
      ],
      createdAt: at(10 * DAY + 240),
    }),
    quest(c, q.everything, {
      name: 'Prove every account',
      categoryId: m.partners,
      conditions: [{ type: 'quest', operator: 'isCompleted', value: q.verifyEmail }],
      tasks: [
        apiTask(6, 'Every account', {
          apiKey: DEMO.taskApiKey,
          identifications: ['email', 'wallet', 'discord', 'twitter', 'svc-connect'],
          network: 'eth-mainnet',
          redirectUrl: DEMO.connectRedirectUrl,
        }),
      ],
      claimLimit: 500,
      claimCount: 3,
      createdAt: at(10 * DAY + 300),
    }),
    quest(c, q.partnership, {
      name: 'Visit our partner',
      categoryId: m.partners,
      autoValidate: false,
      tasks: [
        {
          id: seedUuid('50000000', 7),
          type: 'partnership',
          metadata: { partner: 'sandbox' },
          settings: { subdomain: DEMO.sandbox.subdomain },
        },
      ],
      recurrence: 'once',
      createdAt: at(10 * DAY + 360),
    }),
    quest(c, q.archived, {
      name: 'Launch week (archived)',
      categoryId: m.community,
      archived: true,
      claimCount: 240,
      createdAt: at(10 * DAY + 420),
    }),
    quest(c, q.deleted, {
      name: 'Old quest (deleted)',
      categoryId: m.community,
      deleted: true,
      published: false,
      createdAt: at(10 * DAY + 480),
    }),
    quest(c, q.draft, {
      name: 'Draft quest',
      categoryId: m.onboarding,
      published: false,
      autoValidate: false,
      retryAfter: null,
      rewards: [],
      createdAt: at(10 * DAY + 540),
    }),
  ];
}

function demoWebhooks(): { webhooks: WebhookRecord[]; deliveries: DeliveryRecord[] } {
  const c = DEMO.communityId;
  const statuses = ['success', 'success', 'failed', 'success', 'exhausted', 'pending'] as const;
  const deliveries: DeliveryRecord[] = statuses.map((status, n) => {
    const createdAt = at(20 * DAY + n * 60);
    const tries =
      status === 'pending' ? 0 : status === 'exhausted' ? 16 : status === 'failed' ? 3 : 1;
    const lastTry = at(20 * DAY + n * 60 + tries);
    return {
      id: seedUuid('40000000', n + 1),
      webhookId: DEMO.webhooks.joined,
      communityId: c,
      status,
      eventType: 'JOINED_COMMUNITY',
      tries,
      // Demo history, never delivered: marked so that a reader of the payload (the dashboard,
      // a replay) cannot take it for a real event.
      payload: {
        demo: true,
        type: 'JOINED_COMMUNITY',
        time: Date.parse(createdAt),
        data: {
          community: { id: c, subdomain: DEMO.subdomain },
          user: { id: generatedUserId(n) },
        },
      },
      createdAt,
      updatedAt: lastTry,
      retryAt: status === 'failed' || status === 'pending' ? at(20 * DAY + n * 60 + 30) : lastTry,
    };
  });
  const counted = (status: string) => deliveries.filter((d) => d.status === status).length;
  return {
    webhooks: [
      {
        id: DEMO.webhooks.joined,
        communityId: c,
        // Inactive until pointed at a receiver: nothing listens at the seeded uri, and an active
        // webhook there would make every join a failing delivery retried for days.
        name: 'Member joined (demo data: set uri, then active: true)',
        uri: 'http://127.0.0.1:4010/webhooks/joined',
        active: false,
        secret: 'whsec_demo_joined_5a0c7e19b3d2',
        events: ['JOINED_COMMUNITY'],
        success: counted('success'),
        failed: counted('failed'),
        exhausted: counted('exhausted'),
        createdAt: at(15 * DAY),
        updatedAt: at(15 * DAY),
      },
      {
        id: DEMO.webhooks.claims,
        communityId: c,
        name: 'Quest claims (demo data)',
        uri: 'http://127.0.0.1:4010/webhooks/claims',
        active: false,
        secret: 'whsec_demo_claims_2f4e6a8c0b1d',
        events: ['QUEST_CLAIMED', 'QUEST_SUCCEEDED', 'QUEST_FAILED'],
        success: 0,
        failed: 0,
        exhausted: 0,
        createdAt: at(16 * DAY),
        updatedAt: at(17 * DAY),
      },
    ],
    deliveries,
  };
}

function seedSandbox(store: Store): void {
  const s = DEMO.sandbox;
  store.communities.put({
    id: s.communityId,
    subdomain: s.subdomain,
    name: 'Questkit Sandbox',
    image: null,
    description: null,
    sector: null,
    blockchain: null,
    type: null,
    inviteMinXp: 0,
    connectSecret: s.connectSecret,
    createdAt: at(0),
  });
  store.apiKeys.put({
    id: seedUuid('60000000', 101),
    communityId: s.communityId,
    key: s.apiKey,
    scope: 'read-write',
    name: 'sandbox read-write',
    createdAt: at(0),
  });
  store.modules.put({
    id: s.module,
    communityId: s.communityId,
    name: 'Sandbox',
    description: null,
    color: null,
    coverUrl: null,
    position: 0,
  });
  const users = [
    user(s.communityId, s.users.admin, {
      name: 'sam',
      email: 'sam@example.com',
      xp: 10,
      role: 'admin',
    }),
    user(s.communityId, s.users.guest, { name: 'sky', xp: 5 }),
  ];
  assignRanks(users);
  for (const member of users) store.users.put(member);
  store.quests.put(
    quest(s.communityId, s.quest, { name: 'Say hello', categoryId: s.module, createdAt: at(DAY) }),
  );
}

/**
 * Writes the deterministic demo data into an empty store: community `demo` with its modules,
 * named users covering every field variant, `users` generated members, invites in all three
 * states, quests in several modules (API tasks of every identification method), webhooks with
 * delivery records; and a second community, `sandbox`. Identifiers are in {@link DEMO}.
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
  const community: CommunityRecord = {
    id: DEMO.communityId,
    subdomain: DEMO.subdomain,
    name: 'Questkit Demo',
    image: 'https://example.com/images/questkit-demo.png',
    description: 'The demo community of the questkit mock platform.',
    sector: 'Developer tools',
    blockchain: 'ethereum',
    type: 'community',
    inviteMinXp: 100,
    connectSecret: DEMO.connectSecret,
    createdAt: at(0),
  };
  store.communities.put(community);
  store.apiKeys.put({
    id: seedUuid('60000000', 1),
    communityId: community.id,
    key: options.apiKey ?? DEMO.apiKeys.readWrite,
    scope: 'read-write',
    name: 'demo read-write',
    createdAt: at(0),
  });
  store.apiKeys.put({
    id: seedUuid('60000000', 2),
    communityId: community.id,
    key: DEMO.apiKeys.readOnly,
    scope: 'read-only',
    name: 'demo read-only',
    createdAt: at(0),
  });
  const modules = [
    ['onboarding', 'Onboarding', 'First steps in the community.', '#4f46e5', 0],
    ['community', 'Community', 'Take part in the community.', '#059669', 1],
    ['partners', 'Partners', null, null, 2],
  ] as const;
  for (const [key, name, description, color, position] of modules) {
    store.modules.put({
      id: DEMO.modules[key],
      communityId: community.id,
      name,
      description,
      color,
      coverUrl: color ? `https://example.com/covers/${key}.png` : null,
      position,
    });
  }

  const named = namedUsers();
  const { users: members, invites } = generatedUsers(generated, community.inviteMinXp);
  const everyone = [...named, ...members];
  assignRanks(everyone.filter((member) => member.deletedAt === null));
  for (const member of everyone) store.users.put(member);
  for (const invite of [...namedInvites(), ...invites]) store.invites.put(invite);

  for (const record of demoQuests(options.verifyEndpoint ?? DEMO.verifyEndpoint)) {
    store.quests.put(record);
  }
  const { webhooks, deliveries } = demoWebhooks();
  for (const webhook of webhooks) store.webhooks.create(webhook, Number.POSITIVE_INFINITY);
  for (const delivery of deliveries) store.deliveries.put(delivery);
  store.connections.put({
    communityId: community.id,
    userId: DEMO.users.admin,
    redirectUrl: DEMO.connectRedirectUrl,
    identifier: 'community-user-ada',
    createdAt: at(7 * DAY),
  });

  seedSprints(store, community);
  seedDemoReviews(store);

  seedSandbox(store);
  return { namedUsers: named.length, generatedUsers: generated };
}
