import { getConnInfo } from '@hono/node-server/conninfo';
import { type ErrorInfo, fail, ok, type ResultEvent, readConnectRedirect } from '@questkit/core';
import { connectEndpoint, verificationEndpoint } from '@questkit/hono';
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import {
  type Community,
  createCommunity,
  type Member,
  SESSION_TTL_MS,
  type Session,
} from './community.js';
import {
  CSRF_COOKIE,
  createLoginThrottle,
  crossSite,
  csrfMatches,
  DEVICE_COOKIE,
  KNOWN_BROWSER_TTL_MS,
  newCsrfToken,
} from './login-guard.js';
import { COMMUNITY_NAME, homePage, loginPage, messagePage } from './pages.js';
import { safeReturnTo } from './return-to.js';
import { type AppState, createMemoryState, StateUnavailableError } from './state.js';

/** Options of {@link createApp}. */
export interface AppOptions {
  /** The API key of the quest tasks (`X-Api-Key`); a list during a rotation. */
  apiKey: string | readonly string[];
  /** The connect secret from the community's integration settings; a list during a rotation. */
  connectSecret: string | readonly string[];
  /** The public origin the platform redirects to, behind a proxy; default the URL Hono sees. */
  publicUrl?: string;
  /**
   * Origins the connect callback may point to (the platform's); default any signed callback. A link
   * to another origin gets a page naming it and `PLATFORM_ORIGINS`.
   */
  allowedCallbackOrigins?: readonly string[];
  /**
   * Where sessions, links and the login throttle's counters live; default this process's memory.
   * Several instances share one `createRedisState`.
   */
  state?: AppState;
  /** The app's members, sessions and links; default the demo members, in `state`. */
  community?: Community;
  /** Hears every verification answer: for logs. Never a secret. */
  onResult?: (event: ResultEvent) => void;
  /** Hears a verification that failed inside (Redis down): default core's log line on stderr. */
  onError?: (error: unknown, info: ErrorInfo) => void;
  /** Hears every new link: for logs. */
  onLinked?: (member: Member, svcUserId: string) => void;
  /**
   * Login attempts allowed in a minute, default 10: per client address, per account and address,
   * and per account from browsers that never logged in to it.
   */
  loginAttemptsPerMinute?: number;
}

type AppEnv = { Variables: { member: Member | null; session: Session | null } };

const SESSION_COOKIE = 'sid';
/**
 * The community web app: its own login page and session cookie, the identity-connect endpoint
 * (`GET /connect`) that links a logged-in member to the platform member who came from a quest,
 * the home page that shows the link, and the verification endpoint (`POST /verify`) of every
 * quest that asks members to connect their account.
 *
 * @example
 * const app = createApp({
 *   apiKey: process.env.QUEST_API_KEY!,
 *   connectSecret: process.env.CONNECT_SECRET!,
 * });
 */
export function createApp(options: AppOptions): Hono<AppEnv> {
  const state = options.state ?? createMemoryState();
  const community = options.community ?? createCommunity(undefined, undefined, state);
  const secureCookie = options.publicUrl?.startsWith('https:') ?? false;
  const throttle = createLoginThrottle(state, options.loginAttemptsPerMinute ?? 10);
  // The app's own origin: configured behind a proxy, else the one the request came in on.
  const originOf = (c: Context<AppEnv>) => options.publicUrl ?? new URL(c.req.url).origin;
  const showLogin = (
    c: Context<AppEnv>,
    returnTo: string,
    error?: string,
    status: 200 | 401 | 403 | 429 = 200,
  ) => {
    const csrf = newCsrfToken();
    setCookie(c, CSRF_COOKIE, csrf, {
      httpOnly: true,
      sameSite: 'Strict',
      secure: secureCookie,
      path: '/login',
    });
    return c.html(loginPage(returnTo, csrf, error), status);
  };
  const app = new Hono<AppEnv>();
  // The store failing or stalling (each Redis command has a time limit) fails closed: no session
  // trusted, no login unthrottled, and a page that says so instead of a hung request.
  app.onError((error, c) => {
    if (error instanceof StateUnavailableError) {
      c.header('retry-after', '30');
      return c.html(
        messagePage(
          'Temporarily unavailable',
          'We cannot reach our session store right now. Nothing was changed: please try again in a minute.',
        ),
        503,
      );
    }
    console.error(error);
    return c.html(messagePage('Something went wrong', 'Please try again in a minute.'), 500);
  });

  // The session, on the routes that act for a member only: the verification endpoint never
  // depends on a cookie (nor fails when the session store does).
  for (const path of ['/', '/logout', '/connect']) {
    app.use(path, async (c, next) => {
      const session = await community.session(getCookie(c, SESSION_COOKIE));
      c.set('session', session);
      c.set('member', session?.member ?? null);
      await next();
    });
  }

  app.get('/', async (c) => {
    const session = c.get('session');
    return c.html(
      homePage(
        session?.member ?? null,
        session ? await community.linkOf(session.member.id) : null,
        session?.csrf ?? '',
      ),
    );
  });

  app.get('/login', (c) => showLogin(c, safeReturnTo(c.req.query('returnTo'), originOf(c))));

  // A login form is a few hundred bytes: a larger body is refused before it is read (413).
  const loginBodyLimit = bodyLimit({ maxSize: 8 * 1024, onError: (c) => c.text('Too large', 413) });
  app.post('/login', loginBodyLimit, async (c) => {
    // Another site's form may not log a visitor in (login CSRF): refused on its Origin, and
    // without one on the token this app's own form carries.
    if (crossSite(c.req.header('origin'), c.req.header('sec-fetch-site'), originOf(c))) {
      return c.html(messagePage('Not allowed', 'This login form belongs to another site.'), 403);
    }
    const address = getConnInfo(c).remote.address ?? 'unknown';
    const form = await c.req.parseBody();
    const text = (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : '');
    const returnTo = safeReturnTo(text('returnTo'), originOf(c));
    if (!csrfMatches(text('csrf'), getCookie(c, CSRF_COOKIE))) {
      return showLogin(c, returnTo, 'This form has expired. Please log in again.', 403);
    }
    const refusal = await throttle.check(address, text('username'), getCookie(c, DEVICE_COOKIE));
    if (refusal) {
      const why =
        refusal === 'account'
          ? 'Too many attempts at this account from elsewhere. Log in from a browser you used before, or wait a minute.'
          : 'Too many attempts. Please wait a minute, then try again.';
      return showLogin(c, returnTo, why, 429);
    }
    const member = await community.logIn(text('username'), text('password'));
    if (!member) return showLogin(c, returnTo, 'Wrong username or password.', 401);
    deleteCookie(c, CSRF_COOKIE, { path: '/login' });
    // This browser is now known to the account: guesses from elsewhere cannot lock it out.
    setCookie(c, DEVICE_COOKIE, await throttle.remember(member.username), {
      httpOnly: true,
      sameSite: 'Strict',
      secure: secureCookie,
      path: '/login',
      maxAge: KNOWN_BROWSER_TTL_MS / 1000,
    });
    setCookie(c, SESSION_COOKIE, await community.openSession(member.id), {
      httpOnly: true,
      // Lax: the cookie goes along when the platform sends the member here (a top-level GET),
      // never with another site's POST.
      sameSite: 'Lax',
      secure: secureCookie,
      path: '/',
      maxAge: SESSION_TTL_MS / 1000,
    });
    return c.redirect(returnTo, 303);
  });

  // Another site's form may not log a member out (logout CSRF): a same-site page on another port
  // still gets the Lax cookie sent along. Refused on its Origin (or Sec-Fetch-Site), and the form
  // must carry the session's own token.
  app.post(
    '/logout',
    bodyLimit({
      maxSize: 4 * 1024,
      onError: (c) => c.html(messagePage('Not allowed', 'This request is too large.'), 413),
    }),
    async (c) => {
      if (crossSite(c.req.header('origin'), c.req.header('sec-fetch-site'), originOf(c))) {
        return c.html(messagePage('Not allowed', 'This logout form belongs to another site.'), 403);
      }
      const session = c.get('session');
      if (session) {
        const form = await c.req.parseBody();
        const csrf = typeof form.csrf === 'string' ? form.csrf : '';
        if (!csrfMatches(csrf, session.csrf)) {
          return c.html(
            messagePage('Not allowed', 'This form has expired. Please try again.'),
            403,
          );
        }
        await community.closeSession(getCookie(c, SESSION_COOKIE));
      }
      deleteCookie(c, SESSION_COOKIE, { path: '/' });
      return c.redirect('/', 303);
    },
  );

  // A signed link returning to an origin not allowed: the page names the origin and the variable
  // that allows it (core's own page names neither, as it cannot know how the app is configured).
  app.get('/connect', async (c, next) => {
    const allowed = options.allowedCallbackOrigins;
    if (!allowed) return next();
    const url = new URL(c.req.url);
    const signed = options.publicUrl
      ? new URL(`${url.pathname}${url.search}`, options.publicUrl)
      : url;
    const read = await readConnectRedirect(signed, options.connectSecret, {
      allowedCallbackOrigins: allowed,
    });
    if (read.ok || read.reason !== 'callback_not_allowed') return next();
    const callback = url.searchParams.get('callback') ?? url.searchParams.get('callbackUrl') ?? '';
    const origin = URL.canParse(callback) ? new URL(callback).origin : callback;
    return c.html(
      messagePage(
        'Account not linked',
        `This connect link returns to ${origin}, which this app does not accept. To accept it, add it to PLATFORM_ORIGINS (now ${allowed.join(', ')}) and restart the app.`,
      ),
      400,
      { 'cache-control': 'no-store' },
    );
  });

  // GET shows the member what would be linked; the link is made only on the POST of its Confirm.
  app.on(
    ['GET', 'POST'],
    '/connect',
    connectEndpoint<AppEnv>({
      appName: COMMUNITY_NAME,
      accountLabel: (id) => community.member(id)?.username ?? id,
      secret: options.connectSecret,
      publicUrl: options.publicUrl,
      allowedCallbackOrigins: options.allowedCallbackOrigins,
      getIdentifier: (c) => c.get('member')?.id,
      loginUrl: '/login',
      onLinked: async ({ svcUserId, identifier }) => {
        await community.saveLink(identifier, svcUserId);
        const member = community.member(identifier);
        if (member) options.onLinked?.(member, svcUserId);
      },
    }),
  );

  // One handler for every quest that identifies members by the connect flow: whatever the
  // quest, the question is the same (is this platform member linked to one of ours?).
  app.all(
    '/verify',
    verificationEndpoint({
      apiKey: options.apiKey,
      requires: ['svc-connect'],
      onResult: options.onResult,
      onError: options.onError,
      verify: async ({ claim, accounts }) => {
        const member = community.member(accounts['svc-connect']);
        if (!member) {
          return fail(
            `We do not know this ${COMMUNITY_NAME} account. Connect your account again from the quest page.`,
          );
        }
        if ((await community.linkOf(member.id))?.svcUserId !== claim.userId) {
          return fail(
            `Your ${COMMUNITY_NAME} account is linked to another platform member. Connect your account again from the quest page.`,
          );
        }
        return ok(`Your ${COMMUNITY_NAME} account ${member.username} is linked. Quest complete.`);
      },
    }),
  );
  return app;
}
