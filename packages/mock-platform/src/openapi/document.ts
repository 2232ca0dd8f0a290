import {
  buildOpenApiDocument as buildContractDocument,
  type OpenApiOptions as ContractOpenApiOptions,
  type OpenApiDocument,
} from '@questkit/core/openapi';
import type { PublicRoute } from '../http/route.js';
import { DEMO_EXAMPLES } from './examples.js';

export type { OpenApiDocument };

/** Options of {@link buildOpenApiDocument}. */
export type OpenApiOptions = Pick<ContractOpenApiOptions, 'serverUrl' | 'version'>;

/**
 * The OpenAPI 3.1 document of the public API as the mock serves it at `/openapi.json`: core's
 * document (`@questkit/core/openapi`) of the mock's routes, with a request example per operation
 * on the demo seed and the mock's own words for its title and member tokens.
 *
 * @example
 * const document = buildOpenApiDocument(PUBLIC_ROUTES, { serverUrl: 'http://127.0.0.1:4000' });
 */
export function buildOpenApiDocument(
  routes: readonly PublicRoute[],
  options: OpenApiOptions = {},
): OpenApiDocument {
  return buildContractDocument({
    ...options,
    operations: routes,
    examples: DEMO_EXAMPLES,
    title: 'Community Platform Public API (questkit mock)',
    description:
      'The public API as the questkit mock platform serves it. Errors answer {"message": string} ' +
      '(plus "issues" on validation errors). Credentials: x-api-key (per community, read-only or read-write) ' +
      'or authorization: Bearer <member token issued by the mock>.',
    memberTokenDescription: 'A member token issued by the mock (POST /__mock/tokens).',
  });
}
