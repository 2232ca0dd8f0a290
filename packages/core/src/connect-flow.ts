import { buildConnectCallback } from './connect/callback.js';
import {
  type ConnectRedirectFailure,
  normalizeOrigins,
  readConnectRedirect,
} from './connect/redirect.js';
import { prepareSecrets } from './connect/secrets.js';
import { createConnectState } from './connect/state.js';

type MaybePromise<T> = T | Promise<T>;

/** What the community learns when a member links their account. */
export interface ConnectLink {
  /** The member's id in the service. */
  svcUserId: string;
  /** Your id of the member, sent back to the service (it later arrives as `accounts["svc-connect"]`). */
  identifier: string;
  /** Where the member is sent back to. */
  callback: string;
}

/** Options of {@link createConnectFlow}; the adapters' `connectEndpoint` takes the same. */
export interface ConnectFlowOptions<Req> {
  /** The connect secret from the community's integration settings; a list during a rotation (the first signs). */
  secret: string | readonly string[];
  /** Your logged-in user's identifier for this request, or null/undefined when nobody is logged in. */
  getIdentifier: (req: Req) => MaybePromise<string | null | undefined>;
  /**
   * Your login page, for members who are not logged in. A string gets `returnTo=<path>` appended;
   * a function builds the URL itself. After login, send the member to that path to resume.
   */
  loginUrl?: string | ((returnTo: string, req: Req) => string);
  /** Called once the member is known, before the redirect back: store the link here. */
  onLinked?: (link: ConnectLink, req: Req) => MaybePromise<void>;
  /** Origins the callback may point to, e.g. `['https://platform.example']`. */
  allowedCallbackOrigins?: readonly string[];
  /** Lifetime of the state token that carries the flow across your login; default 600 s. */
  stateTtlSeconds?: number;
  /**
   * The public origin the service signed (`https://community.example`). Set it behind a proxy or
   * TLS terminator; without it the adapter uses what its framework reports.
   */
  publicUrl?: string;
  /** Errors thrown by `getIdentifier` or `onLinked`. Default: console.error. */
  onError?: (error: unknown) => void;
}

/** Why a connect request was refused. */
export type ConnectFailure =
  | ConnectRedirectFailure
  | 'expired_state'
  | 'invalid_state'
  | 'not_logged_in'
  | 'app_error';

/** What an adapter does with a connect request: redirect the browser, or show a 400 page. */
export type ConnectAction =
  | { kind: 'redirect'; status: 302; location: string }
  | { kind: 'error'; status: 400; reason: ConnectFailure; message: string };

/** The framework-independent connect endpoint. */
export interface ConnectFlow<Req> {
  /** Handles one request, given its full public URL. Never throws. */
  handle(url: string, req: Req): Promise<ConnectAction>;
  /** The validated `publicUrl` origin, if one was configured. */
  publicOrigin: string | undefined;
}

const STATE_PARAM = 'state';

const FAILURE_MESSAGES: Record<ConnectFailure, string> = {
  invalid_url: 'This connect link is not a valid address.',
  missing_signature: 'This connect link is not signed. Start again from the quest page.',
  duplicate_signature: 'This connect link is not valid. Start again from the quest page.',
  malformed_signature: 'This connect link is not valid. Start again from the quest page.',
  bad_signature: 'This connect link has an invalid signature. Start again from the quest page.',
  missing_svc_user_id: 'This connect link does not say which member to link.',
  missing_callback: 'This connect link does not say where to return.',
  invalid_callback: 'This connect link returns to an address that is not allowed.',
  callback_not_allowed: 'This connect link returns to an address that is not allowed.',
  expired_state: 'This connect link has expired. Start again from the quest page.',
  invalid_state: 'This connect link is not valid. Start again from the quest page.',
  not_logged_in: 'Log in first, then start again from the quest page.',
  app_error: 'We could not link your account right now. Please try again.',
};

/**
 * The community side of the identity-connect flow, independent of any framework: verifies the
 * signed redirect, asks the app who is logged in (sending visitors to the login page with a
 * signed state token so the flow resumes after login), reports the link, and redirects the
 * member to the signed callback. Adapters turn its {@link ConnectAction} into a response.
 *
 * @example
 * const flow = createConnectFlow({
 *   secret: process.env.CONNECT_SECRET!,
 *   getIdentifier: (req: Request) => sessionUser(req)?.id,
 *   loginUrl: '/login',
 *   onLinked: ({ svcUserId, identifier }) => links.save(svcUserId, identifier),
 * });
 * const action = await flow.handle(request.url, request);
 */
export function createConnectFlow<Req>(options: ConnectFlowOptions<Req>): ConnectFlow<Req> {
  if (typeof options.getIdentifier !== 'function') {
    throw new TypeError('[@questkit/core] connect: getIdentifier must be a function');
  }
  const secrets = typeof options.secret === 'string' ? [options.secret] : options.secret;
  // Configuration errors throw here, at start-up, never on a request.
  prepareSecrets(options.secret);
  normalizeOrigins(options.allowedCallbackOrigins);
  const state = createConnectState({
    secret: secrets[0] as string,
    ttlSeconds: options.stateTtlSeconds ?? 600,
  });
  const publicOrigin = readPublicOrigin(options.publicUrl);
  const onError = options.onError ?? ((error) => console.error('[@questkit/core] connect:', error));
  const failure = (reason: ConnectFailure): ConnectAction => ({
    kind: 'error',
    status: 400,
    reason,
    message: FAILURE_MESSAGES[reason],
  });

  const resolveMember = async (
    url: URL,
  ): Promise<{ svcUserId: string; callback: string } | ConnectFailure> => {
    const token = url.searchParams.get(STATE_PARAM);
    if (token !== null && !url.searchParams.has('signature')) {
      const opened = await state.open(token);
      if (!opened.ok) return opened.reason === 'expired' ? 'expired_state' : 'invalid_state';
      return opened;
    }
    const redirect = readConnectRedirect(url, options.secret, options);
    return redirect.ok ? redirect : redirect.reason;
  };

  return {
    publicOrigin,
    async handle(href, req) {
      let url: URL;
      try {
        url = new URL(href);
      } catch {
        return failure('invalid_url');
      }
      const member = await resolveMember(url);
      if (typeof member === 'string') return failure(member);
      try {
        const identifier = await options.getIdentifier(req);
        if (identifier == null || identifier === '') {
          if (!options.loginUrl) return failure('not_logged_in');
          const returnTo = `${url.pathname}?${STATE_PARAM}=${await state.seal(member)}`;
          const location =
            typeof options.loginUrl === 'function'
              ? options.loginUrl(returnTo, req)
              : `${options.loginUrl}${options.loginUrl.includes('?') ? '&' : '?'}returnTo=${encodeURIComponent(returnTo)}`;
          return { kind: 'redirect', status: 302, location };
        }
        const link = {
          svcUserId: member.svcUserId,
          identifier: String(identifier),
          callback: member.callback,
        };
        await options.onLinked?.(link, req);
        return {
          kind: 'redirect',
          status: 302,
          location: buildConnectCallback(member.callback, link.identifier, secrets[0] as string),
        };
      } catch (error) {
        try {
          onError(error);
        } catch {
          // A broken error hook must not change the answer.
        }
        return failure('app_error');
      }
    },
  };
}

/**
 * The URL the signer saw: the public origin joined, as text, with the path and query the app
 * received. Joined, not resolved: a path such as `//evil.example/x` must stay a path of this
 * origin (and then fail verification), never become another host.
 */
export function publicRequestUrl(pathAndQuery: string, origin: string): string {
  return `${origin}${pathAndQuery.startsWith('/') ? '' : '/'}${pathAndQuery}`;
}

function readPublicOrigin(publicUrl: string | undefined): string | undefined {
  if (publicUrl === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(publicUrl);
  } catch {
    url = undefined;
  }
  if (
    !url ||
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    url.pathname !== '/' ||
    url.search
  ) {
    throw new TypeError(
      '[@questkit/core] connect: publicUrl must be an origin such as https://community.example',
    );
  }
  return url.origin;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * The body of a connect error for a browser (a small HTML page) or an API client (JSON
 * `{message, reason}`), chosen by the `Accept` header.
 */
export function renderConnectError(
  action: Extract<ConnectAction, { kind: 'error' }>,
  accept: string | null | undefined,
): { contentType: string; body: string } {
  if (!/text\/html/i.test(accept ?? '')) {
    return {
      contentType: 'application/json; charset=utf-8',
      body: JSON.stringify({ message: action.message, reason: action.reason }),
    };
  }
  const message = action.message.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
  return {
    contentType: 'text/html; charset=utf-8',
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Account not linked</title></head><body><main><h1>Account not linked</h1><p>${message}</p></main></body></html>`,
  };
}
