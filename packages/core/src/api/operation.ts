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

/**
 * The optional service headers an operation may read, by the option name a client gives them
 * (`{ mcpClient: 'claude' }` sends `x-svc-mcp-client: claude`).
 */
export const SVC_HEADER_NAMES = {
  mcpClient: 'x-svc-mcp-client',
  confirmationToken: 'x-svc-confirmation-token',
} as const;
/** The option name of a service header; see {@link SVC_HEADER_NAMES}. */
export type SvcHeaderOption = keyof typeof SVC_HEADER_NAMES;
/** The optional service headers an operation may read. */
export const SVC_HEADERS = Object.values(SVC_HEADER_NAMES) as readonly SvcHeader[];
/** An optional service header. */
export type SvcHeader = (typeof SVC_HEADER_NAMES)[SvcHeaderOption];

/**
 * How a list operation pages, so a client walks every page without knowing the list by name.
 * Every page asks for `size` items (at most `maxSize`); the items are the answer itself
 * (`items: null`) or one of its fields. The next page is asked for by:
 * - `last-id`: `param` is the id of the last item of this page; a short page is the last;
 * - `answer-field`: `param` is the answer's `field` of this page; null (or no item) is the end;
 * - `page-number`: `param` counts pages from `first`; a short page is the last.
 */
export interface ApiPaging {
  size: string;
  maxSize: number;
  items: string | null;
  next:
    | { kind: 'last-id'; param: string }
    | { kind: 'answer-field'; param: string; field: string }
    | { kind: 'page-number'; param: string; first: number };
}

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
  /** How the list pages, for lists a client can walk to the end. */
  paging?: ApiPaging;
  /** The path parameters, `subdomain` included. */
  params: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The success body and its name in the OpenAPI document; null for "200, no content". */
  response: { name: string; schema: z.ZodType } | null;
  /** The success status when it is not 200: 201 for a creation the platform answers so. */
  status?: 201;
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
