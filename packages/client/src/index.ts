/**
 * @module
 * `@questkit/client`: a typed client of the community quest platform's public API. One method
 * per operation, named by its operationId and derived from `@questkit/core/api`, the same
 * definitions the mock platform serves; `paginate` over the lists; typed errors; 429 retries;
 * timeouts and aborts; answers checked against core's schemas. Web-standard: Node 20, Bun, Deno,
 * Workers.
 */
export { type Client, type ClientOptions, createClient } from './client.js';
export {
  NetworkError,
  PlatformError,
  RedirectError,
  ResponseValidationError,
  TimeoutError,
} from './errors.js';
export type { ClientMethods } from './methods.js';
export type { RetryOptions } from './retry.js';
export type {
  CallOptions,
  OperationInput,
  OperationMethods,
  OperationOutput,
  PageItem,
  PaginatedOperationId,
  PaginateInput,
  ServiceHeaders,
} from './types.js';
