/**
 * @module
 * `@questkit/core/openapi`: the public API's OpenAPI 3.1 document, generated from the contract's
 * operations (`@questkit/core/api`), for a client generator, a docs page or a mocking tool such
 * as Prism, without the mock platform. A separate entry, so that `@questkit/core/api` and a
 * Worker's verifier do not carry the generator.
 */
export {
  buildOpenApiDocument,
  type OpenApiDocument,
  type OpenApiOptions,
} from './document.js';
export type { OpenApiExamples, RequestExample } from './examples.js';
export { type JsonSchema, toOpenApiSchema } from './json-schema.js';
