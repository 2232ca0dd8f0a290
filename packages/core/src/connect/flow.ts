import type { DoorAnswer, DoorEndpoint, DoorRequest } from '../adapter/door.js';
import { type FrontDoor, frontDoor } from '../front-door/index.js';
import { type HmacKey, importHmacKey } from '../hmac.js';
import type { MaybePromise } from '../maybe-promise.js';
import { readBooleanOption, readFunctionOption, readNumberOption } from '../options.js';
import { readSecrets, timingSafeEqual } from '../secrets.js';
import { failure, page, redirect } from './answers.js';
import {
  type BoundState,
  type BrowserBinding,
  bindToBrowser,
  readConfirmationForm,
} from './browser.js';
import { buildConnectCallbackWith } from './callback.js';
import { CONNECT_SECRET_OPTION } from './keys.js';
import { type ConfirmView, renderConfirmPage, renderMessagePage } from './pages.js';
import { readPublicOrigin } from './public-url.js';
import { normalizeOrigins, readConnectRedirectWith } from './redirect.js';

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

/** The framework-independent connect endpoint: a door endpoint, `ctx` being the framework's request. */
export interface ConnectFlow<Req> extends DoorEndpoint<Req> {
  /** The validated `publicUrl` origin, if one was configured. */
  publicOrigin: string | undefined;
}

const STATE_PARAM = 'state';
/** How long the confirmation form may take to arrive. */
const FORM_READ_MS = 10_000;

/** The flow's settings, read and checked once at start-up. */
interface Flow<Req> {
  readonly options: ConnectFlowOptions<Req>;
  /** One HMAC key per connect secret, imported once; the first signs the callback. */
  readonly keys: readonly HmacKey[];
  readonly allowed: ReadonlySet<string> | null;
  readonly browser: BrowserBinding;
  readonly confirm: boolean;
}

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
  // Configuration errors throw here, at start-up, never on a request.
  readFunctionOption('connect: getIdentifier', options.getIdentifier, true);
  for (const name of ['onLinked', 'accountLabel', 'renderConfirmPage', 'onError'] as const) {
    readFunctionOption(`connect: ${name}`, options[name]);
  }
  if (
    options.loginUrl !== undefined &&
    typeof options.loginUrl !== 'string' &&
    typeof options.loginUrl !== 'function'
  ) {
    throw new TypeError('[@questkit/core] connect: loginUrl must be a URL or a function');
  }
  const secrets = readSecrets(options.secret, CONNECT_SECRET_OPTION);
  const publicOrigin = readPublicOrigin(options.publicUrl);
  const ttlSeconds = readNumberOption('connect: stateTtlSeconds', options.stateTtlSeconds, 600, {
    min: 1,
    max: 24 * 60 * 60,
    integer: true,
  });
  const flow: Flow<Req> = {
    options,
    keys: secrets.map(importHmacKey),
    allowed: normalizeOrigins(options.allowedCallbackOrigins),
    browser: bindToBrowser(secrets[0]!, ttlSeconds),
    confirm: readBooleanOption('connect: confirm', options.confirm, true),
  };
  const onError = options.onError ?? ((error) => console.error('[@questkit/core] connect:', error));

  return {
    publicOrigin,
    async handle(request, ctx) {
      const door = frontDoor(request, FORM_READ_MS);
      let answer: DoorAnswer;
      try {
        answer = await walk(flow, door, request, ctx);
      } catch (error) {
        try {
          onError(error);
        } catch {
          // A broken error hook must not change the answer.
        }
        answer = failure(request, 'app_error');
      }
      return { ...answer, close: await door.close() };
    },
  };
}

/** The steps, in order: URL, method, then the signed link (GET) or the member's decision (POST). */
async function walk<Req>(
  flow: Flow<Req>,
  door: FrontDoor,
  request: DoorRequest,
  ctx: Req,
): Promise<DoorAnswer> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return failure(request, 'invalid_url');
  }
  if (door.method === 'GET') return show(flow, url, request, ctx);
  if (door.method === 'POST') return decide(flow, url, door, request, ctx);
  return failure(request, 'method_not_allowed');
}

/** GET: a signed redirect starts the flow; `?state=` resumes it after login. */
async function show<Req>(
  flow: Flow<Req>,
  url: URL,
  request: DoorRequest,
  ctx: Req,
): Promise<DoorAnswer> {
  const { options, browser } = flow;
  const cookies: string[] = [];
  let token = url.searchParams.get(STATE_PARAM);
  let member: BoundState;
  if (token !== null && !url.searchParams.has('signature')) {
    const resumed = await browser.resume(token, request);
    if (typeof resumed === 'string') return failure(request, resumed);
    member = resumed;
  } else {
    const verified = await readConnectRedirectWith(url, flow.keys, flow.allowed);
    if (!verified.ok) return failure(request, verified.reason);
    const started = await browser.start(url, verified.svcUserId, verified.callback);
    ({ token, member } = started);
    cookies.push(started.cookie);
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
  if (!flow.confirm) return link(flow, url, request, member, id, ctx);
  const view: ConfirmView = {
    appName: options.appName ?? 'community',
    account: options.accountLabel ? await options.accountLabel(id, ctx) : id,
    platformMember: `…${member.svcUserId.slice(-4)}`,
    svcUserId: member.svcUserId,
    returnsTo: new URL(member.callback).origin,
    action: url.pathname,
    fields: {
      [STATE_PARAM]: token,
      confirmation: await browser.formToken(member.nonce, id, token),
    },
  };
  return page(200, (options.renderConfirmPage ?? renderConfirmPage)(view), cookies);
}

/** POST from the confirmation page: Confirm links, Cancel does not; either ends the flow. */
async function decide<Req>(
  flow: Flow<Req>,
  url: URL,
  door: FrontDoor,
  request: DoorRequest,
  ctx: Req,
): Promise<DoorAnswer> {
  const { options, browser } = flow;
  const form = await readConfirmationForm(door);
  const token = form?.get(STATE_PARAM);
  const confirmation = form?.get('confirmation');
  const decision = form?.get('decision');
  if (!form || !token || !confirmation || (decision !== 'confirm' && decision !== 'cancel')) {
    return failure(request, 'bad_form');
  }
  const member = await browser.resume(token, request);
  if (typeof member === 'string') return failure(request, member);
  const identifier = await options.getIdentifier(ctx);
  if (identifier == null || identifier === '') return failure(request, 'not_logged_in');
  const id = String(identifier);
  // Bound to the identifier the page was shown to and to this browser's nonce.
  if (!timingSafeEqual(confirmation, await browser.formToken(member.nonce, id, token))) {
    return failure(request, 'bad_form');
  }
  if (decision === 'confirm') return link(flow, url, request, member, id, ctx);
  return page(
    200,
    renderMessagePage(
      'Nothing was linked',
      'Your account was not linked. You can close this page.',
    ),
    [browser.end(url)],
  );
}

/** `onLinked`, then the member goes back to the signed callback; the flow ends in this browser. */
async function link<Req>(
  flow: Flow<Req>,
  url: URL,
  request: DoorRequest,
  member: BoundState,
  identifier: string,
  ctx: Req,
): Promise<DoorAnswer> {
  await flow.options.onLinked?.(
    { svcUserId: member.svcUserId, identifier, callback: member.callback },
    ctx,
  );
  // 303 after the confirmation's POST, so the browser follows with a GET; 302 as before on a GET.
  const status = request.method.toUpperCase() === 'POST' ? 303 : 302;
  const location = await buildConnectCallbackWith(member.callback, identifier, flow.keys[0]!);
  return redirect(status, location, [flow.browser.end(url)]);
}
