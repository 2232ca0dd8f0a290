import type { z } from 'zod';
import type { RouteAccess } from '../auth/authorize.js';
import type { Principal } from '../auth/principal.js';
import type { MockContext } from '../context.js';
import type { CommunityRecord } from '../store/records.js';
import type { ErrorStatus } from './errors.js';
import type { RouteResult } from './result.js';

/** The optional service headers a route reads, validated and recorded when sent. */
export const SVC_HEADERS = ['x-svc-mcp-client', 'x-svc-confirmation-token'] as const;
/** An optional service header. */
export type SvcHeader = (typeof SVC_HEADERS)[number];

/** The service headers of one request, after validation. */
export interface SvcHeaders {
  mcpClient: string | null;
  confirmationToken: string | null;
}

/** HTTP methods of the public API. */
export type RouteMethod = 'get' | 'post' | 'patch' | 'delete';

type OutputOf<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler receives: the validated request, the community and the caller. */
export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  community: CommunityRecord;
  principal: Principal;
  svc: SvcHeaders;
}

/**
 * A route of the public API, as data: the pipeline runs authentication, rate limit, authorization
 * and validation from it, and the OpenAPI document is generated from it, so the two cannot drift.
 */
export interface RouteDefinition<
  PS extends z.ZodType = z.ZodType,
  QS extends z.ZodType | undefined = z.ZodType | undefined,
  BS extends z.ZodType | undefined = z.ZodType | undefined,
  RS extends z.ZodType | null = z.ZodType | null,
> {
  operationId: string;
  method: RouteMethod;
  /** Relative to `/public/communities/{subdomain}`, OpenAPI style: `/users/{userId}`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  /** Only `x-api-key` is read (the contract marks it required there). */
  apiKeyOnly?: boolean;
  access: RouteAccess;
  /** The path parameter naming the member for `self` access. */
  selfParam?: string;
  headers?: readonly SvcHeader[];
  params: PS;
  query?: QS;
  body?: BS;
  /** The 200 body and its name in the OpenAPI document; null for "200, no content". */
  response: RS extends z.ZodType ? { name: string; schema: RS } : null;
  /** The error statuses this route can answer (documented in OpenAPI, each one tested). */
  errors: readonly ErrorStatus[];
  // Method syntax on purpose: it keeps typed handlers assignable to the untyped route list.
  handle(
    input: RouteInput<OutputOf<PS>, OutputOf<QS>, OutputOf<BS>>,
    context: MockContext,
  ):
    | RouteResult<RS extends z.ZodType ? z.input<RS> : never>
    | Promise<RouteResult<RS extends z.ZodType ? z.input<RS> : never>>;
}

/** Any route of the public API. */
export type PublicRoute = RouteDefinition;

/** Defines a route with its handler typed from its schemas. */
export function defineRoute<
  PS extends z.ZodType,
  QS extends z.ZodType | undefined = undefined,
  BS extends z.ZodType | undefined = undefined,
  RS extends z.ZodType | null = null,
>(route: RouteDefinition<PS, QS, BS, RS>): PublicRoute {
  return route as unknown as PublicRoute;
}
