import { UserPathParamsSchema } from '@questkit/core';
import { z } from 'zod';
import { apiError } from '../http/errors.js';
import { empty } from '../http/result.js';
import { defineRoute } from '../http/route.js';
import { findMember, memberNotFound } from './users.js';

/** Query of the connect-association removal (a schema of the mock: the contract shows none). */
export const ConnectRemovalQuerySchema = z.object({
  redirectUrl: z
    .url()
    .optional()
    .describe('Remove only the association of this redirect URL; all of the member when absent.'),
});

/**
 * DELETE /users/{userId}/connect: the contract says the route exists without showing its path;
 * this is the mock's choice, beside the member it acts on.
 */
export const deleteConnectAssociation = defineRoute({
  operationId: 'deleteConnectAssociation',
  method: 'delete',
  path: '/users/{userId}/connect',
  summary: "Remove a member's connect association",
  description:
    'Deletes the identity-connect association of a member (all of them, or the one of redirectUrl); the member must connect ' +
    'again before claiming a task of the connect method. 404 when the member has none. Answers 200 without content. ' +
    'The path is the mock’s choice: the contract does not show it.',
  tag: 'Users',
  access: 'write',
  headers: ['x-svc-mcp-client', 'x-svc-confirmation-token'],
  params: UserPathParamsSchema,
  query: ConnectRemovalQuerySchema,
  response: null,
  errors: [400, 401, 403, 404, 429],
  handle({ params, query, community }, { store }) {
    if (!findMember(store, community, params.userId))
      return memberNotFound(params.userId, community);
    const removed = store.connections.deleteByUser(params.userId, query.redirectUrl);
    if (removed === 0) {
      return apiError(
        404,
        query.redirectUrl === undefined
          ? `User ${params.userId} has no connect association`
          : `User ${params.userId} has no connect association for this redirect URL`,
      );
    }
    return empty();
  },
});
