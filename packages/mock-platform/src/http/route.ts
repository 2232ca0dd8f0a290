import {
  API_OPERATIONS,
  type ApiOperation,
  type OperationId,
  SVC_HEADERS,
  type SvcHeader,
} from '@questkit/core/api';
import type { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import type { MockContext } from '../context.js';
import type { CommunityRecord } from '../store/records.js';
import type { RouteResult } from './result.js';

export { SVC_HEADERS, type SvcHeader };

/** The service headers of one request, after validation. */
export interface SvcHeaders {
  mcpClient: string | null;
  confirmationToken: string | null;
}

/** HTTP methods of the public API. */
export type RouteMethod = ApiOperation['method'];

type OutputOf<S> = S extends z.ZodType ? z.output<S> : undefined;
type ResponseOf<O extends ApiOperation> = O['response'] extends {
  schema: infer R extends z.ZodType;
}
  ? z.input<R>
  : never;

/** What a handler receives: the validated request, the community and the caller. */
export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  community: CommunityRecord;
  principal: Principal;
  svc: SvcHeaders;
}

/** The mock's handler of one operation, typed from the operation's schemas. */
export type RouteHandler<O extends ApiOperation> = (
  input: RouteInput<OutputOf<O['params']>, OutputOf<O['query']>, OutputOf<O['body']>>,
  context: MockContext,
) => RouteResult<ResponseOf<O>> | Promise<RouteResult<ResponseOf<O>>>;

/**
 * A route of the public API: core's operation (the contract, as data) and the mock's handler. The
 * pipeline runs authentication, rate limit, authorization and validation from the operation, and
 * the OpenAPI document is generated from it, so the two cannot drift.
 */
export interface RouteDefinition extends ApiOperation {
  // Method syntax on purpose: it keeps typed handlers assignable to the untyped route list.
  /** Answers a request that passed authentication, rate limit, authorization and validation. */
  handle(
    input: RouteInput<unknown, unknown, unknown>,
    context: MockContext,
  ): RouteResult<unknown> | Promise<RouteResult<unknown>>;
}

/** Any route of the public API. */
export type PublicRoute = RouteDefinition;

/**
 * Binds the mock's handler to core's operation of this operationId.
 *
 * @example
 * export const getUser = bindRoute('getUser', ({ params }, { store }) => ...);
 */
export function bindRoute<Id extends OperationId>(
  operationId: Id,
  handle: RouteHandler<(typeof API_OPERATIONS)[Id]>,
): PublicRoute {
  return { ...API_OPERATIONS[operationId], handle } as unknown as PublicRoute;
}
