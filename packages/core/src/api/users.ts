import * as z from 'zod';
import {
  InviteListQuerySchema,
  InviteListSchema,
  ReviewCountsSchema,
  ReviewPathParamsSchema,
  SubdomainParamsSchema,
  UserBySocialSchema,
  UserLookupQuerySchema,
  UserPathParamsSchema,
  UserSchema,
} from '../schemas/index.js';
import { INVITE_PAGE_MIN, INVITE_PAGE_SIZE_MAX } from '../schemas/limits.js';
import { defineOperation } from './operation.js';

/** GET /users/{userId} */
export const getUser = defineOperation({
  operationId: 'getUser',
  method: 'get',
  path: '/users/{userId}',
  summary: 'User by id',
  description:
    'A member by id, deleted members included (deletedAt set). Members without the admin role may read only themselves.',
  tag: 'Users',
  access: 'self',
  selfParam: 'userId',
  headers: ['x-svc-mcp-client'],
  params: UserPathParamsSchema,
  response: { name: 'User', schema: UserSchema },
  errors: [400, 401, 403, 404, 429],
});

/** GET /users?discordId=...&email=... */
export const lookupUser = defineOperation({
  operationId: 'lookupUser',
  method: 'get',
  path: '/users',
  summary: 'User by social or wallet identifier',
  description:
    'At least one identifier is required; when several are given they must all match the same member, else 404. ' +
    'Emails, hex addresses, Discord handles and Twitter usernames match case-insensitively. ethAddress matches the ' +
    'connected wallet; blockchainAddress a verified address (on blockchainNetwork when given). Deleted members are not found.',
  tag: 'Users',
  access: 'admin',
  headers: ['x-svc-mcp-client'],
  params: SubdomainParamsSchema,
  query: UserLookupQuerySchema,
  response: { name: 'UserBySocial', schema: UserBySocialSchema },
  errors: [400, 401, 403, 404, 429],
});

/** GET /users/{userId}/invites?page=1 */
export const listInvites = defineOperation({
  operationId: 'listInvites',
  method: 'get',
  path: '/users/{userId}/invites',
  summary: "A member's invites",
  description:
    'The members this member invited, by joinedAt then user id; pages count from 1. A page past the end is an empty array.',
  tag: 'Users',
  access: 'self',
  selfParam: 'userId',
  headers: ['x-svc-mcp-client'],
  paging: {
    size: 'page_size',
    maxSize: INVITE_PAGE_SIZE_MAX,
    items: null,
    next: { kind: 'page-number', param: 'page', first: INVITE_PAGE_MIN },
  },
  params: UserPathParamsSchema,
  query: InviteListQuerySchema,
  response: { name: 'InviteList', schema: InviteListSchema },
  errors: [400, 401, 403, 404, 429],
});

/** GET /reviews/users/{id} */
export const getReviewCounts = defineOperation({
  operationId: 'getReviewCounts',
  method: 'get',
  path: '/reviews/users/{id}',
  summary: "A member's review counts",
  description: 'Flags and stars the contributions of a member received.',
  tag: 'Users',
  access: 'self',
  selfParam: 'id',
  headers: ['x-svc-mcp-client'],
  params: ReviewPathParamsSchema,
  response: { name: 'ReviewCounts', schema: ReviewCountsSchema },
  errors: [400, 401, 403, 404, 429],
});

/** Query of the connect-association removal (questkit's choice: the contract shows none). */
export const ConnectRemovalQuerySchema = z.object({
  redirectUrl: z
    .url()
    .optional()
    .describe('Remove only the association of this redirect URL; all of the member when absent.'),
});

/**
 * DELETE /users/{userId}/connect: the contract says the operation exists without showing its
 * path; this is questkit's choice, beside the member it acts on.
 */
export const deleteConnectAssociation = defineOperation({
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
});
