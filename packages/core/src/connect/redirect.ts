import type { HmacKey } from '../hmac.js';
import { parseCallbackUrl } from './callback.js';
import { parseUrl } from './canonical.js';
import { connectKeys } from './keys.js';
import { signUrl } from './sign.js';
import { type SignedUrlFailure, verifySignedUrlWith } from './verify.js';

/** The two names under which a redirect carries the callback URL. */
export type CallbackParam = 'callback' | 'callbackUrl';

/** Why a connect redirect was rejected. */
export type ConnectRedirectFailure =
  | SignedUrlFailure
  | 'missing_svc_user_id'
  | 'missing_callback'
  | 'invalid_callback'
  | 'callback_not_allowed';

/** The outcome of {@link readConnectRedirect}. */
export type ConnectRedirect =
  | {
      readonly ok: true;
      /** The member's id in the service: store it if you need it later. */
      readonly svcUserId: string;
      /** Where to send the member back, as the service wrote it (an absolute http(s) URL). */
      readonly callback: string;
      /** The parameter the callback came in. */
      readonly callbackParam: CallbackParam;
    }
  | { readonly ok: false; readonly reason: ConnectRedirectFailure };

/** Options of {@link readConnectRedirect}. */
export interface ReadConnectRedirectOptions {
  /**
   * Origins (`https://platform.example`) the callback may point to. Without it any absolute
   * http(s) callback that the service signed is accepted.
   */
  readonly allowedCallbackOrigins?: readonly string[];
}

// One parse per allow-list, not per request: callers pass the same list every time (so a list is
// read once; replacing it, not mutating it, changes what is allowed).
const parsedOrigins = new WeakMap<readonly string[], ReadonlySet<string>>();

/**
 * The allow-list as a set of origins; throws a TypeError for a malformed list (a configuration
 * error). Exported for `createConnectFlow`, which checks its options at start-up.
 */
export function normalizeOrigins(
  origins: readonly string[] | undefined,
): ReadonlySet<string> | null {
  if (origins === undefined) return null;
  const cached = Array.isArray(origins) ? parsedOrigins.get(origins) : undefined;
  if (cached) return cached;
  if (!Array.isArray(origins)) {
    throw new TypeError('[@questkit/core] allowedCallbackOrigins must be a list of origins');
  }
  const set = new Set(
    origins.map((origin: unknown, index) => {
      const url = typeof origin === 'string' ? parseCallbackUrl(origin) : null;
      if (url === null) {
        throw new TypeError(
          `[@questkit/core] allowedCallbackOrigins[${index}] must be an http(s) origin such as https://platform.example`,
        );
      }
      return url.origin;
    }),
  );
  parsedOrigins.set(origins, set);
  return set;
}

/**
 * Reads the redirect the service sends a member to (step 1 of the identity-connect flow): checks
 * the signature with {@link verifySignedUrl}, then returns `svcUserId` and the callback URL, read
 * from `callback` or, when that is absent, from `callbackUrl`.
 *
 * The callback must be an absolute http(s) URL without credentials, even when correctly signed,
 * and its origin must be in `allowedCallbackOrigins` when given: that keeps the community from
 * becoming an open redirect. A parameter given twice is ambiguous and rejected. Bad input is data
 * and never rejects; an empty secret or a malformed allow-list throws a TypeError at the call.
 *
 * @example
 * const redirect = await readConnectRedirect(request.url, process.env.CONNECT_SECRET!, {
 *   allowedCallbackOrigins: ['https://platform.example'],
 * });
 * if (!redirect.ok) return new Response('This connect link is not valid.', { status: 400 });
 * // log the member in, then redirect to buildConnectCallback(redirect.callback, member.id, secret)
 */
export function readConnectRedirect(
  url: string | URL,
  secret: string | readonly string[],
  options: ReadConnectRedirectOptions = {},
): Promise<ConnectRedirect> {
  const keys = connectKeys(secret);
  const allowed = normalizeOrigins(options.allowedCallbackOrigins);
  return readConnectRedirectWith(url, keys, allowed);
}

/** {@link readConnectRedirect} with keys imported and the allow-list read once. */
export async function readConnectRedirectWith(
  url: string | URL,
  keys: readonly HmacKey[],
  allowed: ReadonlySet<string> | null,
): Promise<ConnectRedirect> {
  const verified = await verifySignedUrlWith(url, keys);
  if (!verified.ok) return verified;
  const { params } = verified;

  const svcUserIds = params.getAll('svcUserId');
  if (svcUserIds.length !== 1 || svcUserIds[0] === '') {
    return { ok: false, reason: 'missing_svc_user_id' };
  }

  const callbackParam: CallbackParam = params.has('callback') ? 'callback' : 'callbackUrl';
  const callbacks = params.getAll(callbackParam);
  if (callbacks.length === 0 || callbacks[0] === '')
    return { ok: false, reason: 'missing_callback' };
  if (callbacks.length > 1) return { ok: false, reason: 'invalid_callback' };
  const callback = callbacks[0]!;
  const callbackUrl = parseCallbackUrl(callback);
  if (callbackUrl === null) return { ok: false, reason: 'invalid_callback' };
  if (allowed !== null && !allowed.has(callbackUrl.origin)) {
    return { ok: false, reason: 'callback_not_allowed' };
  }
  return { ok: true, svcUserId: svcUserIds[0]!, callback, callbackParam };
}

/** Options of {@link createConnectRedirect}. */
export interface CreateConnectRedirectOptions {
  /** The redirect URL configured on the task (the community's connect page). */
  readonly redirectUrl: string | URL;
  /** The member's id in the service. */
  readonly svcUserId: string;
  /** Where the community sends the member back: an absolute http(s) URL. */
  readonly callback: string;
  /** The community's connect secret. */
  readonly secret: string;
  /** The name of the callback parameter; default `callback`. */
  readonly callbackParam?: CallbackParam;
}

/**
 * The service side of step 1: the task's redirect URL with `svcUserId` and the callback set
 * (replacing values already there), signed with {@link signUrl}. Throws a TypeError, at the call, on an
 * unparseable redirect URL, an empty `svcUserId`, a callback that is not an absolute http(s)
 * URL, an unknown `callbackParam` or an empty secret.
 *
 * @example
 * const location = await createConnectRedirect({
 *   redirectUrl: 'https://app.example.com/connect',
 *   svcUserId: member.id,
 *   callback: `https://platform.example/connect/callback?session=${session.id}`,
 *   secret: community.connectSecret,
 * });
 */
export function createConnectRedirect(options: CreateConnectRedirectOptions): Promise<string> {
  const { redirectUrl, svcUserId, callback, secret, callbackParam = 'callback' } = options;
  const url = parseUrl(redirectUrl);
  if (url === null) {
    throw new TypeError(
      '[@questkit/core] createConnectRedirect: redirectUrl must be an absolute URL',
    );
  }
  if (typeof svcUserId !== 'string' || svcUserId.length === 0) {
    throw new TypeError(
      '[@questkit/core] createConnectRedirect: svcUserId must be a non-empty string',
    );
  }
  if (typeof callback !== 'string' || parseCallbackUrl(callback) === null) {
    throw new TypeError(
      '[@questkit/core] createConnectRedirect: callback must be an absolute http(s) URL',
    );
  }
  if (callbackParam !== 'callback' && callbackParam !== 'callbackUrl') {
    throw new TypeError(
      "[@questkit/core] createConnectRedirect: callbackParam must be 'callback' or 'callbackUrl'",
    );
  }
  url.searchParams.set('svcUserId', svcUserId);
  url.searchParams.set(callbackParam, callback);
  return signUrl(url, secret);
}
