import type {
  ApiOperations,
  ApiPaging,
  ApiRequestBodyTypes,
  ApiResponseTypes,
  OperationId,
  SVC_HEADER_NAMES,
  SvcHeaderOption,
} from '@questkit/core/api';
import type { z } from 'zod';

// Every type of the client is derived from core's operation definitions: a field or an operation
// changed there changes here, with nothing to regenerate. Answers and bodies take core's named
// types (`User`, `WebhookCreateBody`), so an editor shows those names rather than their fields.

/**
 * The optional service headers, by the name a method's input gives them: `mcpClient` sends
 * `x-svc-mcp-client`, `confirmationToken` sends `x-svc-confirmation-token`.
 */
export type ServiceHeaders = { [N in SvcHeaderOption]?: string };

type HeaderName<H> = {
  [N in SvcHeaderOption]: (typeof SVC_HEADER_NAMES)[N] extends H ? N : never;
}[SvcHeaderOption];

type PathInput<O> = O extends { params: infer P extends z.ZodType }
  ? Omit<z.input<P>, 'subdomain'>
  : unknown;
type QueryInput<O> = O extends { query: infer Q extends z.ZodType } ? z.input<Q> : unknown;
type BodyInput<K extends OperationId> = K extends keyof ApiRequestBodyTypes
  ? { body: ApiRequestBodyTypes[K] }
  : ApiOperations[K] extends { body: infer B extends z.ZodType }
    ? { body: z.input<B> }
    : unknown;
type HeaderInput<O> = O extends { headers: readonly (infer H)[] }
  ? Pick<ServiceHeaders, HeaderName<H>>
  : unknown;

/** What every method takes besides the operation's own inputs. */
export interface CallOptions {
  /** Aborts the call (and its retries). */
  signal?: AbortSignal;
}

/**
 * The input of an operation: its path parameters (but `subdomain`, set on the client) and query
 * parameters by name, `body` for a request body, the service headers it reads by name.
 */
export type OperationInput<K extends OperationId> = PathInput<ApiOperations[K]> &
  QueryInput<ApiOperations[K]> &
  BodyInput<K> &
  HeaderInput<ApiOperations[K]> &
  CallOptions;

/** What an operation resolves to: the parsed answer, or `undefined` for "200, no content". */
export type OperationOutput<K extends OperationId> = ApiOperations[K]['response'] extends {
  name: infer N extends keyof ApiResponseTypes;
}
  ? ApiResponseTypes[N]
  : undefined;

/** Whether an operation can be called without input. */
type NeedsInput<K extends OperationId> = object extends OperationInput<K> ? false : true;

/** One method per operation, named by its operationId. */
export type OperationMethods = {
  [K in OperationId]: NeedsInput<K> extends true
    ? (input: OperationInput<K>) => Promise<OperationOutput<K>>
    : (input?: OperationInput<K>) => Promise<OperationOutput<K>>;
};

/** The operations `paginate` walks: those whose definition says how they page. */
export type PaginatedOperationId = {
  [K in OperationId]: ApiOperations[K] extends { paging: ApiPaging } ? K : never;
}[OperationId];

/**
 * The item type of a paginated operation: of the answer itself, or of the answer's field that
 * the paging names (`items`, `data`).
 */
export type PageItem<K extends PaginatedOperationId> = ApiOperations[K] extends {
  paging: { items: infer F extends string };
}
  ? OperationOutput<K> extends { [P in F]: readonly (infer T)[] }
    ? T
    : never
  : OperationOutput<K> extends readonly (infer T)[]
    ? T
    : never;

/** The input of `paginate`: the operation's, without its page fields, plus `maxItems`. */
export type PaginateInput<K extends PaginatedOperationId> = Omit<
  OperationInput<K>,
  'cursor' | 'page'
> & {
  /** Stop after this many items. */
  maxItems?: number;
};
