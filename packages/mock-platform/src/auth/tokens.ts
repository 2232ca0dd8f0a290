import { errors, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../clock.js';
import { randomHex } from '../ids.js';

const ISSUER = 'questkit-mock-platform';
const AUDIENCE = 'questkit-public-api';

/** What a valid member token says. */
export interface MemberClaims {
  userId: string;
  communityId: string;
}

/** Why a member token was refused (never the token itself). */
export type TokenRefusal = 'expired' | 'invalid';

/** Issues and checks the member tokens (`authorization: Bearer <JWT>`) of one platform. */
export interface MemberTokens {
  /** A signed HS256 JWT for the member, valid `ttlSeconds` from the platform clock's now. */
  issue(member: MemberClaims, ttlSeconds?: number): Promise<string>;
  /** The claims of a token this platform issued, or why it is refused. */
  verify(token: string): Promise<MemberClaims | { refused: TokenRefusal }>;
}

/** Options of {@link createMemberTokens}. */
export interface MemberTokensOptions {
  clock: Clock;
  /** Signing secret; random per platform when absent (tokens then die with the platform). */
  secret?: string;
  ttlSeconds: number;
}

/**
 * The member token service: HS256 JWTs with `sub` = user id and `cid` = community id, checked
 * against the platform clock (so an injected clock expires them too).
 *
 * @example
 * const tokens = createMemberTokens({ clock: systemClock, ttlSeconds: 3600 });
 * const jwt = await tokens.issue({ userId, communityId });
 */
export function createMemberTokens(options: MemberTokensOptions): MemberTokens {
  if (options.secret !== undefined && options.secret.length < 16) {
    throw new TypeError('[@questkit/mock-platform] tokenSecret must be at least 16 characters');
  }
  const key = new TextEncoder().encode(options.secret ?? randomHex(32));
  return {
    async issue(member, ttlSeconds = options.ttlSeconds) {
      const now = Math.floor(options.clock.now().getTime() / 1000);
      return new SignJWT({ cid: member.communityId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(member.userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(now)
        .setExpirationTime(now + ttlSeconds)
        .sign(key);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          audience: AUDIENCE,
          algorithms: ['HS256'],
          currentDate: options.clock.now(),
        });
        if (typeof payload.sub !== 'string' || typeof payload.cid !== 'string') {
          return { refused: 'invalid' };
        }
        return { userId: payload.sub, communityId: payload.cid };
      } catch (error) {
        return { refused: error instanceof errors.JWTExpired ? 'expired' : 'invalid' };
      }
    },
  };
}
