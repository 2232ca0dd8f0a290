import type { DoorAnswer, DoorEndpoint, DoorRequest } from './adapter/door.js';
import { bodyLeftOnWire, readBody } from './adapter/read-body.js';
import { buildConnectCallbackWith } from './connect/callback.js';
import { CONNECT_SECRET_OPTION } from './connect/keys.js';
import { type ConfirmView, renderConfirmPage, renderMessagePage } from './connect/pages.js';
import {
  type ConnectRedirectFailure,
  normalizeOrigins,
  readConnectRedirectWith,
} from './connect/redirect.js';
import { createHmacSha256, sha256, toHex } from './connect/sha256.js';
import { type ConnectState, createConnectState } from './connect/state.js';
import type { MaybePromise } from './maybe-promise.js';
import { prepareHmacKeys, readSecrets, timingSafeEqual } from './secrets.js';

export { type ConfirmView, escapeHtml } from './connect/pages.js';

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
  /** Called once the member confirmed, before the redirect back: store the link here. */
  onLinked?: (link: ConnectLink, req: Req) => MaybePromise<void>;
  /** Origins the callback may point to, e.g. `['https://platform.example']`. */
  allowedCallbackOrigins?: readonly string[];
  /** Lifetime of the flow (its state token and browser cookie); default 600 s. */
  stateTtlSeconds?: number;
  /**
   * The public origin the service signed (`https://community.example`). Set it behind a proxy or
   * TLS terminator; without it the adapter uses what its framework reports.
   */
  publicUrl?: string;
  /**
   * Ask the member before linking (default `true`): a signed link opened by a logged-in member
   * shows a page naming both accounts, and the link is made only on a POST from it.
   *
   * `false` links on the GET itself. **Risk:** anyone can then send a logged-in member a link of
   * their own platform account (an image tag, a chat link) and have that member's community
   * account linked to the attacker's platform account: quests are then claimed on the victim's
   * behalf. Only for a flow whose links no one else can produce.
   */
  confirm?: boolean;
  /** Your app's name on the confirmation page; default "community". */
  appName?: string;
  /** How the confirmation page names the member's account; default the identifier itself. */
  accountLabel?: (identifier: string, req: Req) => MaybePromise<string>;
  /**
   * Your own confirmation page (HTML). It must post the view's `fields` unchanged to
   * `view.action`, with a submit button named `decision` of value `confirm` or `cancel`.
   */
  renderConfirmPage?: (view: ConfirmView) => string;
  /** Errors thrown by the app's callbacks. Default: console.error. */
  onError?: (error: unknown) => void;
}

/** Why a connect request was refused. */
export type ConnectFailure =
  | ConnectRedirectFailure
  | 'expired_state'
  | 'invalid_state'
  | 'other_browser'
  | 'bad_form'
  | 'not_logged_in'
  | 'method_not_allowed'
  | 'app_error';

/** The framework-independent connect endpoint: a door endpoint, `ctx` being the framework's request. */
export interface ConnectFlow<Req> extends DoorEndpoint<Req> {
  /** The validated `publicUrl` origin, if one was configured. */
  publicOrigin: string | undefined;
}

const STATE_PARAM = 'state';
const NONCE_COOKIE = 'qk_connect_nonce';
const MAX_FORM_BYTES = 8 * 1024;
const FORM_READ_MS = 10_000;

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
  other_browser:
    'This connect link was already used, or opened in another browser. Start again from the quest page.',
  bad_form: 'This confirmation is not valid. Start again from the quest page.',
  not_logged_in: 'Log in first, then start again from the quest page.',
  method_not_allowed: 'This connect page only answers GET and POST requests.',
  app_error: 'We could not link your account right now. Please try again.',
};

// Pages are never cached, never framed (a framed Confirm button could be clicked by trickery),
// and run no script.
const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
};

/**
 * The community side of the identity-connect flow, independent of any framework, safe against
 * forced linking and replay by default:
 * 1. The signed redirect is verified, and a nonce is set in a cookie of this browser; the flow's
 *    state token (signed, short-lived, stateless) carries the nonce's hash.
 * 2. A visitor goes to your login page, with the token, and comes back to resume.
 * 3. A logged-in member sees a confirmation page naming both accounts. The link is made only on
 *    a POST from it, carrying a token bound to the member's identifier and the browser's nonce.
 * 4. Then `onLinked`, the nonce cookie is cleared (so the token is used once), and the member is
 *    sent to the signed callback.
 *
 * @example
 * const flow = createConnectFlow({
 *   secret: process.env.CONNECT_SECRET!,
 *   getIdentifier: (req: Request) => sessionUser(req)?.id,
 *   loginUrl: '/login',
 *   appName: 'Acme Builders',
 *   onLinked: ({ svcUserId, identifier }) => links.save(svcUserId, identifier),
 * });
 * const answer = await flow.handle(requestFromWeb(request), request);
 */
export function createConnectFlow<Req>(options: ConnectFlowOptions<Req>): ConnectFlow<Req> {
  if (typeof options.getIdentifier !== 'function') {
    throw new TypeError('[@questkit/core] connect: getIdentifier must be a function');
  }
  // Configuration errors throw here, at start-up, never on a request; the keys are prepared once.
  const secrets = readSecrets(options.secret, CONNECT_SECRET_OPTION);
  const keys = prepareHmacKeys(secrets);
  normalizeOrigins(options.allowedCallbackOrigins);
  const ttlSeconds = options.stateTtlSeconds ?? 600;
  const state = createConnectState({ secret: secrets[0] as string, ttlSeconds });
  const publicOrigin = readPublicOrigin(options.publicUrl);
  const confirm = options.confirm ?? true;
  if (typeof confirm !== 'boolean') {
    throw new TypeError('[@questkit/core] connect: confirm must be true or false');
  }
  const appName = options.appName ?? 'community';
  const render = options.renderConfirmPage ?? renderConfirmPage;
  // Its own key, derived from the secret: a form token can never pass as a URL signature.
  const formMac = createHmacSha256(`${secrets[0]}\u0000questkit-connect-confirm-v1`);
  const onError = options.onError ?? ((error) => console.error('[@questkit/core] connect:', error));

  const page = (status: number, html: string, cookies: string[] = []): DoorAnswer => ({
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', ...PAGE_HEADERS },
    cookies,
    body: html,
    close: false,
  });
  const redirect = (status: 302 | 303, location: string, cookies: string[] = []): DoorAnswer => ({
    status,
    headers: { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
    cookies,
    body: '',
    close: false,
  });
  const failure = (
    request: DoorRequest,
    reason: ConnectFailure,
    cookies: string[] = [],
  ): DoorAnswer => {
    const message = FAILURE_MESSAGES[reason];
    if (!/text\/html/i.test(request.header('accept') ?? '')) {
      return {
        status: 400,
        headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
        cookies,
        body: JSON.stringify({ message, reason }),
        close: false,
      };
    }
    return page(400, renderMessagePage('Account not linked', message), cookies);
  };

  /** The cookie that binds the flow to this browser, scoped to the connect route. */
  const nonceCookie = (url: URL, value: string, maxAge: number) =>
    `${NONCE_COOKIE}=${value}; Path=${url.pathname}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${url.protocol === 'https:' ? '; Secure' : ''}`;

  const formToken = (nonce: string, identifier: string, token: string) =>
    formMac(`${nonce}\u0000${identifier}\u0000${token}`);

  /** The state of a resumed flow, when this browser holds the nonce it was started with. */
  const openState = async (
    token: string,
    request: DoorRequest,
  ): Promise<(ConnectState & { nonce: string }) | ConnectFailure> => {
    const opened = await state.open(token);
    if (!opened.ok) return opened.reason === 'expired' ? 'expired_state' : 'invalid_state';
    const nonce = readCookie(request.header('cookie'), NONCE_COOKIE);
    if (!opened.nonceHash || !nonce || !timingSafeEqual(hashHex(nonce), opened.nonceHash)) {
      return 'other_browser';
    }
    return { ...opened, nonce };
  };

  const link = async (
    url: URL,
    request: DoorRequest,
    member: ConnectState,
    identifier: string,
    ctx: Req,
  ): Promise<DoorAnswer> => {
    await options.onLinked?.(
      { svcUserId: member.svcUserId, identifier, callback: member.callback },
      ctx,
    );
    // 303 after the confirmation's POST, so the browser follows with a GET; 302 as before on a GET.
    const status = request.method.toUpperCase() === 'POST' ? 303 : 302;
    return redirect(status, buildConnectCallbackWith(member.callback, identifier, keys[0]!), [
      nonceCookie(url, '', 0),
    ]);
  };

  /** GET: a signed redirect starts the flow; `?state=` resumes it after login. */
  const show = async (url: URL, request: DoorRequest, ctx: Req): Promise<DoorAnswer> => {
    const cookies: string[] = [];
    let token = url.searchParams.get(STATE_PARAM);
    let member: ConnectState & { nonce: string };
    if (token !== null && !url.searchParams.has('signature')) {
      const opened = await openState(token, request);
      if (typeof opened === 'string') return failure(request, opened);
      member = opened;
    } else {
      const verified = readConnectRedirectWith(url, keys, options);
      if (!verified.ok) return failure(request, verified.reason);
      const nonce = randomHex(16);
      token = await state.seal({
        svcUserId: verified.svcUserId,
        callback: verified.callback,
        nonceHash: hashHex(nonce),
      });
      member = { svcUserId: verified.svcUserId, callback: verified.callback, nonce };
      cookies.push(nonceCookie(url, nonce, ttlSeconds));
    }
    const identifier = await options.getIdentifier(ctx);
    if (identifier == null || identifier === '') {
      if (!options.loginUrl) return failure(request, 'not_logged_in', cookies);
      const returnTo = `${url.pathname}?${STATE_PARAM}=${token}`;
      const location =
        typeof options.loginUrl === 'function'
          ? options.loginUrl(returnTo, ctx)
          : `${options.loginUrl}${options.loginUrl.includes('?') ? '&' : '?'}returnTo=${encodeURIComponent(returnTo)}`;
      return redirect(302, location, cookies);
    }
    const id = String(identifier);
    if (!confirm) return link(url, request, member, id, ctx);
    const view: ConfirmView = {
      appName,
      account: options.accountLabel ? await options.accountLabel(id, ctx) : id,
      platformMember: `…${member.svcUserId.slice(-4)}`,
      svcUserId: member.svcUserId,
      returnsTo: new URL(member.callback).origin,
      action: url.pathname,
      fields: { [STATE_PARAM]: token, confirmation: formToken(member.nonce, id, token) },
    };
    return page(200, render(view), cookies);
  };

  /** POST from the confirmation page: Confirm links, Cancel does not; either ends the flow. */
  const decide = async (url: URL, request: DoorRequest, ctx: Req): Promise<DoorAnswer> => {
    const form = await readForm(request);
    const token = form?.get(STATE_PARAM);
    const confirmation = form?.get('confirmation');
    const decision = form?.get('decision');
    if (!form || !token || !confirmation || (decision !== 'confirm' && decision !== 'cancel')) {
      return failure(request, 'bad_form');
    }
    const member = await openState(token, request);
    if (typeof member === 'string') return failure(request, member);
    const identifier = await options.getIdentifier(ctx);
    if (identifier == null || identifier === '') return failure(request, 'not_logged_in');
    const id = String(identifier);
    // Bound to the identifier the page was shown to and to this browser's nonce.
    if (!timingSafeEqual(confirmation, formToken(member.nonce, id, token))) {
      return failure(request, 'bad_form');
    }
    if (decision === 'confirm') return link(url, request, member, id, ctx);
    return page(
      200,
      renderMessagePage(
        'Nothing was linked',
        'Your account was not linked. You can close this page.',
      ),
      [nonceCookie(url, '', 0)],
    );
  };

  return {
    publicOrigin,
    async handle(request, ctx) {
      const answer = await answerOf(request, ctx);
      // A body left unread (a GET with one, a form refused on its length, too slow) closes the
      // connection, so that the rest is neither drained nor read as the next request.
      return { ...answer, close: bodyLeftOnWire(request, readBodies.has(request)) };
    },
  };

  async function answerOf(request: DoorRequest, ctx: Req): Promise<DoorAnswer> {
    {
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        return failure(request, 'invalid_url');
      }
      const method = request.method.toUpperCase();
      if (method !== 'GET' && method !== 'POST') return failure(request, 'method_not_allowed');
      try {
        return method === 'GET' ? await show(url, request, ctx) : await decide(url, request, ctx);
      } catch (error) {
        try {
          onError(error);
        } catch {
          // A broken error hook must not change the answer.
        }
        return failure(request, 'app_error');
      }
    }
  }
}

/** Requests whose body was read to its end. */
const readBodies = new WeakSet<DoorRequest>();

/** The confirmation form's fields, from a urlencoded body or a framework's parsed form. */
async function readForm(request: DoorRequest): Promise<Map<string, string> | undefined> {
  const read = await readBody(request, {
    maxBytes: MAX_FORM_BYTES,
    deadline: (request.receivedAt ?? Date.now()) + FORM_READ_MS,
  });
  if (!read.ok) return undefined;
  readBodies.add(request);
  const form = new Map<string, string>();
  if ('parsed' in read) {
    if (typeof read.parsed !== 'object' || read.parsed === null) return undefined;
    for (const [name, value] of Object.entries(read.parsed)) {
      if (typeof value === 'string') form.set(name, value);
    }
    return form;
  }
  const params = new URLSearchParams(read.text);
  for (const name of new Set(params.keys())) {
    // A field given twice is ambiguous: it counts as absent.
    const values = params.getAll(name);
    if (values.length === 1) form.set(name, values[0]!);
  }
  return form;
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) {
      const value = part.slice(index + 1).trim();
      return value === '' ? undefined : value;
    }
  }
  return undefined;
}

function randomHex(bytes: number): string {
  return toHex(crypto.getRandomValues(new Uint8Array(bytes)));
}

function hashHex(text: string): string {
  return toHex(sha256(new TextEncoder().encode(text)));
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
