import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { type AppState, createMemoryState } from './state.js';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  length: number,
) => Promise<Buffer>;

/** A member of the community app: its own accounts, not the platform's. */
export interface Member {
  /** The id sent to the platform as the connect `identifier` (`accounts["svc-connect"]`). */
  id: string;
  username: string;
  displayName: string;
}

/** The link between a member and the platform member who connected as them. */
export interface PlatformLink {
  memberId: string;
  /** The member's id in the platform (`svcUserId` of the connect redirect). */
  svcUserId: string;
  linkedAt: string;
}

/** A live session: its member, and the CSRF token of the forms that act for it (logout). */
export interface Session {
  member: Member;
  csrf: string;
}

/**
 * The app's data: members with their passwords (the same on every instance), and sessions and
 * platform links (in the {@link AppState}, shared by every instance when it is on Redis).
 */
export interface Community {
  /** The member whose username and password these are, or null. Constant time per password. */
  logIn(username: string, password: string): Promise<Member | null>;
  member(id: string): Member | null;
  /** Opens a session; returns its id, the value of the session cookie. */
  openSession(memberId: string): Promise<string>;
  /** The live session of this id, or null for an unknown or expired one. */
  session(sessionId: string | undefined): Promise<Session | null>;
  closeSession(sessionId: string | undefined): Promise<void>;
  /** Stores (or replaces) the member's link. */
  saveLink(memberId: string, svcUserId: string): Promise<PlatformLink>;
  linkOf(memberId: string): Promise<PlatformLink | null>;
}

/** A member of the seed, with the password it logs in with. */
export interface MemberSeed extends Member {
  password: string;
}

/**
 * The demo members. The passwords are public demo values (they are in this file and the README).
 */
export const DEMO_MEMBERS: readonly MemberSeed[] = [
  { id: 'member-1001', username: 'ada', displayName: 'Ada L.', password: 'ada-demo-password' },
  { id: 'member-1002', username: 'ben', displayName: 'Ben K.', password: 'ben-demo-password' },
];

/** How long a session lasts. */
export const SESSION_TTL_MS = 8 * 60 * 60 * 1000;

// Asynchronous: scrypt runs on libuv's thread pool, so a flood of logins never blocks the event
// loop that answers the platform's verification calls.
function hash(password: string, salt: Buffer): Promise<Buffer> {
  return scryptAsync(password, salt, 32);
}

/**
 * The community: passwords kept as salted scrypt hashes, sessions as random ids in `state`
 * (default this process's memory; `createRedisState` to share them between instances).
 *
 * @example
 * const community = createCommunity();
 * const ada = await community.logIn('ada', 'ada-demo-password');
 */
export function createCommunity(
  members: readonly MemberSeed[] = DEMO_MEMBERS,
  now: () => number = Date.now,
  state: AppState = createMemoryState(now),
): Community {
  const accounts = new Map(
    members.map(({ password, ...member }) => {
      const salt = randomBytes(16);
      return [member.username, { member, salt, hash: hash(password, salt) }];
    }),
  );
  const byId = new Map(members.map(({ password: _, ...member }) => [member.id, member]));
  // A fixed hash to compare against for unknown usernames, so they take as long as known ones.
  const decoy = { salt: randomBytes(16), hash: Promise.resolve(randomBytes(32)) };
  const sessionKey = (id: string) => `session:${id}`;
  const linkKey = (memberId: string) => `link:${memberId}`;

  return {
    async logIn(username, password) {
      const account = accounts.get(username.trim().toLowerCase());
      const candidate = await hash(password, (account ?? decoy).salt);
      const matches = timingSafeEqual(candidate, await (account ?? decoy).hash);
      return account && matches ? account.member : null;
    },
    member: (id) => byId.get(id) ?? null,
    async openSession(memberId) {
      const id = randomBytes(32).toString('base64url');
      const csrf = randomBytes(32).toString('base64url');
      await state.set(sessionKey(id), JSON.stringify({ memberId, csrf }), SESSION_TTL_MS);
      return id;
    },
    async session(sessionId) {
      if (!sessionId) return null;
      const stored = await state.get(sessionKey(sessionId));
      if (!stored) return null;
      const { memberId, csrf } = JSON.parse(stored) as { memberId: string; csrf: string };
      const member = byId.get(memberId);
      return member ? { member, csrf } : null;
    },
    async closeSession(sessionId) {
      if (sessionId) await state.delete(sessionKey(sessionId));
    },
    async saveLink(memberId, svcUserId) {
      const link = { memberId, svcUserId, linkedAt: new Date(now()).toISOString() };
      await state.set(linkKey(memberId), JSON.stringify(link));
      return link;
    },
    async linkOf(memberId) {
      const stored = await state.get(linkKey(memberId));
      return stored ? (JSON.parse(stored) as PlatformLink) : null;
    },
  };
}
