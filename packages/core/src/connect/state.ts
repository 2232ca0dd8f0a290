import { errors, jwtVerify, SignJWT } from 'jose';
import { hmacBytes, importHmacKey } from '../hmac.js';
import { readNumberOption } from '../options.js';
import { readSecrets } from '../secrets.js';
import { parseCallbackUrl } from './callback.js';
import { CONNECT_SECRET_OPTION } from './keys.js';

const AUDIENCE = 'questkit-connect-state';
// Versioned so a future change of the token's content can never be read with today's meaning.
const KEY_LABEL = 'questkit-connect-state-v1';

/** What travels across the community's own login: the two values of the verified redirect. */
export interface ConnectState {
  readonly svcUserId: string;
  readonly callback: string;
  /**
   * The hex SHA-256 of the nonce the flow put in the browser's cookie when it started: the token
   * is good only in that browser.
   */
  readonly nonceHash?: string;
}

/** The outcome of {@link ConnectStateSealer.open}. */
export type OpenedConnectState =
  | ({ readonly ok: true } & ConnectState)
  | { readonly ok: false; readonly reason: 'expired' | 'invalid' };

/** Options of {@link createConnectState}. */
export interface ConnectStateOptions {
  /** The community's connect secret; the token key is derived from it, never equal to it. */
  readonly secret: string;
  /** How long a token stays valid, in whole seconds; default 600 (10 minutes). */
  readonly ttlSeconds?: number;
}

/** Seals and opens connect-state tokens; made by {@link createConnectState}. */
export interface ConnectStateSealer {
  /** A signed token (a JWT, HS256) carrying `state` until the TTL runs out. */
  seal(state: ConnectState): Promise<string>;
  /** Reads a token of `seal`. Never throws: garbage, tampering and another secret are `invalid`. */
  open(token: string): Promise<OpenedConnectState>;
}

/**
 * Carries `svcUserId` and the callback across the community's own login in a short-lived signed
 * token instead of server memory, so any instance can finish the connect flow. The JWT key is
 * HMAC-SHA256(secret, "questkit-connect-state-v1"): a token can never pass as a URL signature,
 * nor the other way round. The token is signed, not encrypted: keep nothing secret in it.
 *
 * @example
 * const connectState = createConnectState({ secret: process.env.CONNECT_SECRET! });
 * // on the redirect, before sending the member to your login page:
 * const token = await connectState.seal({ svcUserId: redirect.svcUserId, callback: redirect.callback });
 * // after login:
 * const state = await connectState.open(token);
 * if (state.ok) return Response.redirect(buildConnectCallback(state.callback, member.id, secret), 302);
 */
export function createConnectState(options: ConnectStateOptions): ConnectStateSealer {
  const { secret } = options;
  readSecrets(secret, CONNECT_SECRET_OPTION);
  const ttlSeconds = readNumberOption('createConnectState: ttlSeconds', options.ttlSeconds, 600, {
    min: 1,
    max: 24 * 60 * 60,
    integer: true,
  });
  const key = hmacBytes(importHmacKey(secret), KEY_LABEL);

  return {
    async seal(state) {
      const { svcUserId, callback, nonceHash } = state ?? ({} as Partial<ConnectState>);
      if (typeof svcUserId !== 'string' || svcUserId.length === 0) {
        throw new TypeError('[@questkit/core] connect state: svcUserId must be a non-empty string');
      }
      if (typeof callback !== 'string' || parseCallbackUrl(callback) === null) {
        throw new TypeError(
          '[@questkit/core] connect state: callback must be an absolute http(s) URL',
        );
      }
      const now = Math.floor(Date.now() / 1000);
      if (nonceHash !== undefined && !/^[0-9a-f]{64}$/.test(nonceHash)) {
        throw new TypeError('[@questkit/core] connect state: nonceHash must be 64 hex digits');
      }
      return new SignJWT(
        nonceHash === undefined ? { svcUserId, callback } : { svcUserId, callback, nonceHash },
      )
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(AUDIENCE)
        .setAudience(AUDIENCE)
        .setIssuedAt(now)
        .setExpirationTime(now + ttlSeconds)
        .sign(await key);
    },

    async open(token) {
      if (typeof token !== 'string' || token.length === 0) return { ok: false, reason: 'invalid' };
      try {
        const { payload } = await jwtVerify(token, await key, {
          algorithms: ['HS256'],
          issuer: AUDIENCE,
          audience: AUDIENCE,
          requiredClaims: ['exp'],
        });
        const { svcUserId, callback, nonceHash } = payload;
        if (
          typeof svcUserId !== 'string' ||
          svcUserId.length === 0 ||
          typeof callback !== 'string' ||
          parseCallbackUrl(callback) === null ||
          (nonceHash !== undefined && typeof nonceHash !== 'string')
        ) {
          return { ok: false, reason: 'invalid' };
        }
        return nonceHash === undefined
          ? { ok: true, svcUserId, callback }
          : { ok: true, svcUserId, callback, nonceHash };
      } catch (error) {
        return { ok: false, reason: error instanceof errors.JWTExpired ? 'expired' : 'invalid' };
      }
    },
  };
}
