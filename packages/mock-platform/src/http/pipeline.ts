import { ConfirmationTokenSchema, McpClientSchema } from '@questkit/core/api';

export { McpClientSchema };

import { authenticate } from '../auth/authenticate.js';
import { authorize } from '../auth/authorize.js';
import { type Principal, principalLabel } from '../auth/principal.js';
import type { MockContext } from '../context.js';
import { type ApiFailure, apiError, invalid } from '../errors.js';
import { BODY_TOO_LARGE, readBodyText } from './body.js';
import { checkBody } from './body-check.js';
import { preferredError } from './prefer.js';
import { queryParams } from './query.js';
import type { RouteResult } from './result.js';
import type { PublicRoute, SvcHeaders } from './route.js';
import { parseWith } from './validate.js';

function readSvcHeaders(route: PublicRoute, headers: Headers): SvcHeaders | ApiFailure {
  const svc: SvcHeaders = { mcpClient: null, confirmationToken: null };
  for (const name of route.headers ?? []) {
    const value = headers.get(name);
    if (value === null) continue;
    if (name === 'x-svc-mcp-client') {
      if (!McpClientSchema.safeParse(value).success) {
        return invalid(
          'header',
          name,
          'must be a client name of 1 to 64 letters, digits, ".", "_" or "-"',
        );
      }
      svc.mcpClient = value;
    } else {
      if (!ConfirmationTokenSchema.safeParse(value).success) {
        return invalid('header', name, 'must be a uuid');
      }
      svc.confirmationToken = value;
    }
  }
  return svc;
}

async function readJsonBody(request: Request): Promise<{ ok: true; value: unknown } | ApiFailure> {
  const text = await readBodyText(request);
  if (text === null) return apiError(400, BODY_TOO_LARGE);
  if (text.trim() === '') return apiError(400, 'The request body is required: send a JSON object');
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return apiError(400, 'The request body is not valid JSON');
  }
}

/** The outcome of a request, with what the journal records. */
export interface RouteOutcome {
  result: RouteResult;
  principal: Principal | null;
  svc: SvcHeaders | null;
}

/**
 * Runs one request through a route: 401 (credentials), 429 (rate limit per credential), 404
 * (community), 403 (community, scope, role), 400 (headers, `Prefer`, path, query, body), then
 * the error a valid `Prefer: code=…` asks for, or else the handler (404 for a missing resource,
 * 409 for a conflict).
 */
export async function runRoute(
  route: PublicRoute,
  request: Request,
  pathParams: Record<string, string>,
  context: MockContext,
): Promise<RouteOutcome> {
  const { store } = context;
  const done = (
    result: RouteResult,
    principal: Principal | null = null,
    svc: SvcHeaders | null = null,
  ) => ({ result, principal, svc }) satisfies RouteOutcome;

  const authenticated = await authenticate(
    request.headers,
    route.apiKeyOnly === true,
    store,
    context.tokens,
  );
  if (!authenticated.ok) return done(authenticated.failure);
  const { principal } = authenticated;

  const decision = context.rateLimiter.take(principalLabel(principal));
  if (!decision.ok) {
    return done(
      apiError(
        429,
        `Too many requests for this credential; retry after ${decision.retryAfterSeconds} s`,
        {
          headers: { 'retry-after': String(decision.retryAfterSeconds) },
        },
      ),
      principal,
    );
  }

  const subdomain = pathParams.subdomain ?? '';
  const community = store.communities.getBySubdomain(subdomain);
  if (!community) return done(apiError(404, `Community "${subdomain}" not found`), principal);

  const selfId = route.selfParam ? pathParams[route.selfParam] : undefined;
  const refused = authorize(principal, community, route.access, selfId, store);
  if (refused) return done(refused, principal);

  const svc = readSvcHeaders(route, request.headers);
  if ('kind' in svc) return done(svc, principal);
  const preferred = preferredError(request.headers, route.errors);
  if (preferred.kind === 'refused') return done(preferred.failure, principal, svc);

  const params = parseWith(route.params, pathParams, 'path');
  if (!params.ok) return done(params.failure, principal, svc);

  let query: unknown;
  if (route.query) {
    const parsed = parseWith(route.query, queryParams(request.url), 'query');
    if (!parsed.ok) return done(parsed.failure, principal, svc);
    query = parsed.data;
  }

  let body: unknown;
  if (route.body) {
    const raw = await readJsonBody(request);
    if ('kind' in raw) return done(raw, principal, svc);
    const parsed = checkBody(route.body, raw.value);
    if (!parsed.ok) return done(parsed.failure, principal, svc);
    body = parsed.data;
  }

  // An error asked for with `Prefer: code=…` stands in for the handler: it changes nothing.
  if (preferred.kind === 'error') return done(preferred.failure, principal, svc);

  const result = await route.handle(
    { params: params.data, query, body, community, principal, svc } as Parameters<
      PublicRoute['handle']
    >[0],
    context,
  );
  if (context.settings.validateResponses && route.response && result.kind.startsWith('json')) {
    const body =
      result.kind === 'json-text' ? JSON.parse(result.text) : (result as { body: unknown }).body;
    const checked = route.response.schema.safeParse(body);
    if (!checked.success) {
      throw new Error(
        `[@questkit/mock-platform] ${route.operationId} answered a body that ${route.response.name} rejects: ${checked.error.message}`,
      );
    }
  }
  return done(result, principal, svc);
}

/** The HTTP answer of a route result. */
export function toResponse(result: RouteResult): Response {
  // content-length 0 marks it for the server, which then sends no content type (server.ts).
  if (result.kind === 'empty') {
    return new Response(null, { status: 200, headers: { 'content-length': '0' } });
  }
  const headers = new Headers({ 'content-type': 'application/json; charset=utf-8' });
  if (result.kind === 'json-text') return new Response(result.text, { status: 200, headers });
  const status = result.kind === 'json' ? (result.status ?? 200) : result.status;
  if (result.kind === 'error' && result.headers) {
    for (const [name, value] of Object.entries(result.headers)) headers.set(name, value);
  }
  return new Response(JSON.stringify(result.body), { status, headers });
}
