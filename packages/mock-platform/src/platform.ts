import { CLAIM_COUNTER_REFRESH_MS, WEBHOOK_EVENT_TYPES } from '@questkit/core/api';
import { Hono } from 'hono';
import { readAsset } from './assets.js';
import { principalLabel } from './auth/principal.js';
import { createRateLimiter, type RateLimitOptions } from './auth/rate-limit.js';
import { createMemberTokens } from './auth/tokens.js';
import { type Clock, systemClock } from './clock.js';
import type { MockContext } from './context.js';
import { CONTROL_ROUTE_DEFINITIONS } from './control/index.js';
import { controlApp } from './control/router.js';
import { apiError } from './errors.js';
import { RequestClosedError } from './http/body.js';
import { FAVICON_PATHS, faviconResponse } from './http/favicon.js';
import { createGuard } from './http/guard.js';
import { runRoute, toResponse } from './http/pipeline.js';
import type { PublicRoute } from './http/route.js';
import { type KnownRoute, routeHint } from './http/route-hint.js';
import { randomId } from './ids.js';
import {
  DEFAULT_JOURNAL_SIZE,
  DEFAULT_RATE_LIMIT_PER_SECOND,
  DEFAULT_TOKEN_TTL_SECONDS,
  MAX_WEBHOOKS_PER_COMMUNITY,
} from './limits.js';
import { DOCS_SECURITY_HEADERS, renderDocsPage } from './openapi/docs-page.js';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi/document.js';
import { createReferralCodes } from './referral-codes.js';
import { PUBLIC_ROUTES } from './routes/index.js';
import { type SeedDemoOptions, seedDemo } from './seed/demo.js';
import { DEMO } from './seed/demo-ids.js';
import { createServedRequests, type RequestRecord } from './served-requests.js';
import { createService, type MockService, type MockServiceOptions } from './service/service.js';
import { createMemoryStore } from './store/memory.js';
import type { Store } from './store/store.js';

/** Options of {@link createMockPlatform}. Every one is optional. */
export interface MockPlatformOptions extends MockServiceOptions {
  /** The state; default a new in-memory store with the demo seed. */
  store?: Store;
  /** The demo seed of a new store (ignored when `store` is given); false for an empty store. */
  seed?: SeedDemoOptions | false;
  /** The demo community's read-write API key (replaces the seeded or loaded one). */
  apiKey?: string;
  /**
   * The clock of every timestamp and time-based decision (default the system clock). A
   * `ManualClock` makes webhook retries run when the clock is advanced through the platform
   * (`service.advanceClock`, `POST /__mock/clock/advance`); any other clock (`{ now }`) runs them
   * on real timers.
   */
  clock?: Clock;
  /** Token bucket per credential (default 50 per second, burst 50); false to disable. */
  rateLimit?: RateLimitOptions | false;
  /**
   * The clock the rate limit refills by (default `clock`, so tests move it). The CLI gives the
   * system clock with `--clock manual`: a platform clock standing still would never refill.
   */
  rateLimitClock?: Clock;
  /** How long a quest's claimCounter may stay stale, in ms (default one hour). */
  claimCounterRefreshMs?: number;
  /** Most webhooks per community (default 100). */
  maxWebhooksPerCommunity?: number;
  /** Secret signing the member tokens (HS256, at least 16 characters); random by default. */
  tokenSecret?: string;
  /**
   * Secret keying members' referral codes (HMAC-SHA256, at least 16 characters); random by
   * default, so codes change on restart unless the same secret is given.
   */
  referralSecret?: string;
  /** Lifetime of issued member tokens, in seconds (default 24 h). */
  tokenTtlSeconds?: number;
  /** Check every answer against its core schema; a mismatch becomes a 500 (for tests). */
  validateResponses?: boolean;
  /** Public API requests kept by `requests()` (default 1000). */
  journalSize?: number;
  /** Mount the /__mock/ control routes (default true). */
  control?: boolean;
  /**
   * Host names accepted besides loopback names and the bound address; `true` accepts any Host,
   * which reopens DNS rebinding (only behind a proxy that checks it).
   */
  allowedHosts?: readonly string[] | true;
  /** Required on control routes in `x-questkit-control-token` when set (the CLI sets one off loopback). */
  controlToken?: string;
  /** The server URL written in the OpenAPI document (default `/`). */
  serverUrl?: string;
  /** Receives internal errors (default console.error). */
  onError?: (error: unknown) => void;
}

/** A running mock platform: a fetch handler over a store. */
export interface MockPlatform {
  /** Accepts `host` as a `Host` name (the server calls it with the address it is bound to). */
  allowHost(host: string): void;
  /** The Hono app: public routes, /openapi.json, /docs and /__mock/. */
  readonly app: Hono;
  /** Serves one request, in-process, no port needed. */
  fetch(request: Request): Promise<Response>;
  readonly store: Store;
  readonly clock: Clock;
  /** The context the routes run with: the base of the service side. */
  readonly context: MockContext;
  readonly routes: readonly PublicRoute[];
  /** The service side: claims, connect, endpoint checks, webhook deliveries, the retry scheduler. */
  readonly service: MockService;
  /** A member token for `authorization: Bearer <token>`. Throws a TypeError for an unknown user. */
  issueToken(userId: string, options?: { ttlSeconds?: number }): Promise<string>;
  /** The last public API requests, oldest first. */
  requests(): readonly RequestRecord[];
  /** The OpenAPI 3.1 document of the public API. */
  openapi(): OpenApiDocument;
}

const honoPath = (route: PublicRoute) =>
  `/public/communities/:subdomain${route.path.replace(/\{(\w+)\}/g, ':$1')}`;

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) {
    throw new TypeError(`[@questkit/mock-platform] ${name} must be a non-negative number`);
  }
  return value;
}

function applyDemoApiKey(store: Store, key: string, clock: Clock): void {
  if (key.length === 0) throw new TypeError('[@questkit/mock-platform] apiKey must not be empty');
  const demo = store.communities.getBySubdomain(DEMO.subdomain);
  if (!demo)
    throw new TypeError('[@questkit/mock-platform] apiKey needs a community "demo" in the store');
  const current = store.apiKeys.listByCommunity(demo.id).find((k) => k.scope === 'read-write');
  store.apiKeys.put({
    id: current?.id ?? randomId(),
    communityId: demo.id,
    key,
    scope: 'read-write',
    name: current?.name ?? 'demo read-write',
    createdAt: current?.createdAt ?? clock.now().toISOString(),
  });
}

/**
 * A stateful mock of the community platform's public API, as a Web-standard fetch handler.
 * Seeded with the demo community unless a store is given.
 *
 * @example
 * const platform = createMockPlatform();
 * const response = await platform.fetch(
 *   new Request('http://mock/public/communities/demo', { headers: { 'x-api-key': DEMO.apiKeys.readOnly } }),
 * );
 */
export function createMockPlatform(options: MockPlatformOptions = {}): MockPlatform {
  const clock: Clock = options.clock ?? systemClock;
  const store = options.store ?? createMemoryStore();
  if (!options.store && options.seed !== false) seedDemo(store, options.seed ?? {});
  if (options.apiKey !== undefined) applyDemoApiKey(store, options.apiKey, clock);

  const tokenTtlSeconds = positive(
    'tokenTtlSeconds',
    options.tokenTtlSeconds,
    DEFAULT_TOKEN_TTL_SECONDS,
  );
  const onError = options.onError ?? ((error: unknown) => console.error(error));
  const context: MockContext = {
    store,
    clock,
    tokens: createMemberTokens({ clock, secret: options.tokenSecret, ttlSeconds: tokenTtlSeconds }),
    rateLimiter: createRateLimiter(
      options.rateLimit ?? { perSecond: DEFAULT_RATE_LIMIT_PER_SECOND },
      options.rateLimitClock ?? clock,
    ),
    journal: createServedRequests(
      positive('journalSize', options.journalSize, DEFAULT_JOURNAL_SIZE),
    ),
    referralCodes: createReferralCodes(options.referralSecret),
    settings: {
      claimCounterRefreshMs: positive(
        'claimCounterRefreshMs',
        options.claimCounterRefreshMs,
        CLAIM_COUNTER_REFRESH_MS,
      ),
      maxWebhooksPerCommunity: positive(
        'maxWebhooksPerCommunity',
        options.maxWebhooksPerCommunity,
        MAX_WEBHOOKS_PER_COMMUNITY,
      ),
      eventTypes: WEBHOOK_EVENT_TYPES,
      validateResponses: options.validateResponses ?? false,
      tokenTtlSeconds,
      onError,
    },
  };

  const service = createService(context, options);

  const routes = PUBLIC_ROUTES;
  let document: OpenApiDocument | undefined;
  const openapi = () => {
    document ??= buildOpenApiDocument(routes, { serverUrl: options.serverUrl });
    return document;
  };

  const guard = createGuard({
    ...(options.allowedHosts !== undefined ? { allowedHosts: options.allowedHosts } : {}),
    ...(options.controlToken !== undefined ? { controlToken: options.controlToken } : {}),
  });
  const app = new Hono();
  // First of all: the Host allow-list, and the cross-site and token checks of control routes.
  app.use(guard.middleware);
  for (const route of routes) {
    app.on(route.method.toUpperCase(), honoPath(route), async (c) => {
      const outcome = await runRoute(route, c.req.raw, c.req.param(), context);
      const response = toResponse(outcome.result);
      context.journal.record({
        at: clock.now().toISOString(),
        method: c.req.method,
        path: c.req.path,
        operationId: route.operationId,
        status: response.status,
        principal: outcome.principal ? principalLabel(outcome.principal) : null,
        mcpClient: outcome.svc?.mcpClient ?? null,
        confirmationToken: outcome.svc?.confirmationToken ?? null,
      });
      return response;
    });
  }
  app.get('/openapi.json', (c) => c.json(openapi()));
  let docsPage: string | undefined;
  app.get('/docs', (c) => {
    docsPage ??= renderDocsPage(openapi());
    return c.html(docsPage, 200, DOCS_SECURITY_HEADERS);
  });
  app.get('/docs/assets/docs.css', async (c) =>
    c.body(await readAsset('openapi/docs.css'), 200, {
      'content-type': 'text/css; charset=utf-8',
      'cache-control': 'public, max-age=3600',
    }),
  );
  for (const path of FAVICON_PATHS) app.get(path, () => faviconResponse());
  if (options.control !== false) {
    app.route(
      '/',
      controlApp(CONTROL_ROUTE_DEFINITIONS, {
        context,
        service,
        tokenRequired: options.controlToken !== undefined,
      }),
    );
  }
  const known: KnownRoute[] = [
    ...routes.map((route) => ({
      method: route.method,
      path: `/public/communities/{subdomain}${route.path}`,
    })),
    ...(options.control !== false ? CONTROL_ROUTE_DEFINITIONS : []),
  ];
  app.notFound((c) =>
    toResponse(
      apiError(
        404,
        `No route for ${c.req.method} ${c.req.path}${routeHint(c.req.method, c.req.path, known)}`,
      ),
    ),
  );
  app.onError((error) => {
    // A client that left mid-body is not an error of the mock; nobody reads the answer.
    if (!(error instanceof RequestClosedError)) onError(error);
    return toResponse(apiError(500, 'Internal error of the mock platform'));
  });

  return {
    app,
    fetch: async (request) => app.fetch(request),
    store,
    clock,
    context,
    routes,
    service,
    async issueToken(userId, tokenOptions = {}) {
      const user = store.users.get(userId);
      if (!user)
        throw new TypeError(`[@questkit/mock-platform] issueToken: unknown user ${userId}`);
      return context.tokens.issue(
        { userId, communityId: user.communityId },
        tokenOptions.ttlSeconds,
      );
    },
    requests: () => context.journal.list(),
    openapi,
    allowHost: guard.allowHost,
  };
}
