import type { z } from 'zod';

/** HTTP methods of the public API. */
export const API_METHODS = ['get', 'post', 'patch', 'delete'] as const;
/** An HTTP method of the public API. */
export type ApiMethod = (typeof API_METHODS)[number];

/**
 * Who may call an operation.
 * - `any`: any valid API key, of any community (the community lookup).
 * - `read`: a key of the community (either scope) or a member of it.
 * - `self`: a key of the community, an admin of it, or the member the path names.
 * - `admin`: a key of the community (either scope) or an admin of it.
 * - `write`: a read-write key of the community or an admin of it.
 * Banned and deleted members are refused everywhere.
 */
export const API_ACCESS = ['any', 'read', 'self', 'admin', 'write'] as const;
/** Who may call an operation; see {@link API_ACCESS}. */
export type ApiAccess = (typeof API_ACCESS)[number];

/** The error statuses of the public API. */
export const API_ERROR_STATUSES = [400, 401, 403, 404, 409, 429, 500] as const;
/** An error status of the public API. */
export type ApiErrorStatus = (typeof API_ERROR_STATUSES)[number];

/** The optional service headers an operation may read. */
export const SVC_HEADERS = ['x-svc-mcp-client', 'x-svc-confirmation-token'] as const;
/** An optional service header. */
export type SvcHeader = (typeof SVC_HEADERS)[number];

/**
 * One operation of the public API, as data: everything a server, a client or a document needs to
 * agree on, and nothing of how it is served.
 */
export interface ApiOperation {
  operationId: string;
  method: ApiMethod;
  /** Relative to `API_PREFIX` (`/public/communities/{subdomain}`), OpenAPI style: `/users/{userId}`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  /** Only `x-api-key` is accepted (the contract marks it required there); no member token. */
  apiKeyOnly?: boolean;
  access: ApiAccess;
  /** The path parameter naming the member for `self` access. */
  selfParam?: string;
  /** The optional service headers the operation reads, validated when sent. */
  headers?: readonly SvcHeader[];
  /** The path parameters, `subdomain` included. */
  params: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The 200 body and its name in the OpenAPI document; null for "200, no content". */
  response: { name: string; schema: z.ZodType } | null;
  /** The error statuses the operation declares. */
  errors: readonly ApiErrorStatus[];
}

/** The prefix of every path of the public API. */
export const API_PREFIX = '/public/communities/{subdomain}';

/**
 * Defines an operation, keeping every literal (operationId, method, headers) and schema type so
 * servers and clients derive exact types from it.
 */
export function defineOperation<const O extends ApiOperation>(operation: O): O {
  return operation;
}
