// The fixed identifiers and credentials of the demo data, so tests, examples and the README can
// name them. The keys are public demo values, not secrets: anyone reading this file knows them.

const uuid = (prefix: string, n: number) =>
  `${prefix}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/**
 * Identifiers and credentials of the demo seed: community `demo` (and a second community,
 * `sandbox`, to try cross-community access).
 */
export const DEMO = {
  subdomain: 'demo',
  communityId: uuid('c0000000', 1),
  apiKeys: {
    readWrite: 'qk_demo_rw_0f3a9c1e5b7d42a8',
    readOnly: 'qk_demo_ro_6d2e8b4a0c9f1357',
  },
  connectSecret: 'demo-connect-secret-change-me',
  /** Where the demo API tasks send their verification calls (the examples' default). */
  verifyEndpoint: 'http://127.0.0.1:4010/verify',
  /** The X-Api-Key the demo API tasks send: run the examples with QUEST_API_KEY set to it. */
  taskApiKey: 'demo-task-key',
  connectRedirectUrl: 'http://127.0.0.1:4010/connect',
  modules: {
    onboarding: uuid('a0000000', 1),
    community: uuid('a0000000', 2),
    partners: uuid('a0000000', 3),
  },
  users: {
    /** Admin with every linked account type, verified and unverified addresses, invites. */
    admin: uuid('10000000', 1),
    /** Editor with email and Discord; only unverified addresses. */
    editor: uuid('10000000', 2),
    /** Reviewer with Twitter only. */
    reviewer: uuid('10000000', 3),
    /** Every nullable field null, role null. */
    guest: uuid('10000000', 4),
    /** Banned: role banned, isBanned, banReason. */
    banned: uuid('10000000', 5),
    /** Deleted: deletedAt set. */
    deleted: uuid('10000000', 6),
    /** Deleted then restored: deletedAt null again, restoredAt kept. */
    restored: uuid('10000000', 7),
    /** Invited by the admin, xp under the community minimum: invite pending. */
    pendingInvitee: uuid('10000000', 8),
    /** Invited by the admin, invite used for a quest: consumed. */
    consumedInvitee: uuid('10000000', 9),
    /** Wallet only, verified addresses on two networks. */
    walletOnly: uuid('10000000', 10),
  },
  quests: {
    verifyEmail: uuid('20000000', 1),
    connectWallet: uuid('20000000', 2),
    joinDiscord: uuid('20000000', 3),
    followOnX: uuid('20000000', 4),
    partnerConnect: uuid('20000000', 5),
    everything: uuid('20000000', 6),
    partnership: uuid('20000000', 7),
    archived: uuid('20000000', 8),
    deleted: uuid('20000000', 9),
    draft: uuid('20000000', 10),
  },
  webhooks: {
    joined: uuid('30000000', 1),
    claims: uuid('30000000', 2),
  },
  /** Claims of "Visit our partner" (a quest that needs review), one in each review state. */
  reviews: {
    /** jay's claim, waiting for a reviewer. */
    pending: uuid('70000000', 1),
    /** ben's claim, accepted with a star and bonus xp by ada. */
    starred: uuid('70000000', 2),
    /** cleo's claim, refused with a flag by ada. */
    flagged: uuid('70000000', 3),
  },
  sprints: {
    /** Running now (the seed's clock): from a week ago to three weeks on; every quest counts. */
    current: uuid('40000000', 1),
    /** Over: the month before, only the verify-email quest counted. */
    past: uuid('40000000', 2),
  },
  sandbox: {
    subdomain: 'sandbox',
    communityId: uuid('c0000000', 2),
    apiKey: 'qk_sandbox_rw_93b1d7f0a2c4e6b8',
    connectSecret: 'sandbox-connect-secret-change-me',
    module: uuid('a0000000', 101),
    quest: uuid('20000000', 101),
    users: { admin: uuid('10000000', 101), guest: uuid('10000000', 102) },
  },
} as const;

/** The id of the `index`-th generated demo user (0-based). */
export function generatedUserId(index: number): string {
  return uuid('e0000000', index);
}

/** uuid helpers for the seed's own records. @internal */
export const seedUuid = uuid;
