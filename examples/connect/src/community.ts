import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

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

/** The app's state: members with their passwords, sessions, and platform links. */
export interface Community {
  /** The member whose username and password these are, or null. Constant time per password. */
  logIn(username: string, password: string): Promise<Member | null>;
  member(id: string): Member | null;
  /** Opens a session; returns its id, the value of the session cookie. */
  openSession(memberId: string): string;
  /** The member of a live session, or null for an unknown or expired one. */
  sessionMember(sessionId: string | undefined): Member | null;
  closeSession(sessionId: string | undefined): void;
  /** Stores (or replaces) the member's link. */
  saveLink(memberId: string, svcUserId: string): PlatformLink;
  linkOf(memberId: string): PlatformLink | null;
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
 * An in-memory community: passwords kept as salted scrypt hashes, sessions as random ids.
 *
 * @example
 * const community = createCommunity();
 * const ada = community.logIn('ada', 'ada-demo-password');
 */
export function createCommunity(
  members: readonly MemberSeed[] = DEMO_MEMBERS,
  now: () => number = Date.now,
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
  const sessions = new Map<string, { memberId: string; expiresAt: number }>();
  const links = new Map<string, PlatformLink>();

  return {
    async logIn(username, password) {
      const account = accounts.get(username.trim().toLowerCase());
      const candidate = await hash(password, (account ?? decoy).salt);
      const matches = timingSafeEqual(candidate, await (account ?? decoy).hash);
      return account && matches ? account.member : null;
    },
    member: (id) => byId.get(id) ?? null,
    openSession(memberId) {
      const id = randomBytes(32).toString('base64url');
      sessions.set(id, { memberId, expiresAt: now() + SESSION_TTL_MS });
      return id;
    },
    sessionMember(sessionId) {
      if (!sessionId) return null;
      const session = sessions.get(sessionId);
      if (!session) return null;
      if (session.expiresAt <= now()) {
        sessions.delete(sessionId);
        return null;
      }
      return byId.get(session.memberId) ?? null;
    },
    closeSession(sessionId) {
      if (sessionId) sessions.delete(sessionId);
    },
    saveLink(memberId, svcUserId) {
      const link = { memberId, svcUserId, linkedAt: new Date(now()).toISOString() };
      links.set(memberId, link);
      return link;
    },
    linkOf: (memberId) => links.get(memberId) ?? null,
  };
}
