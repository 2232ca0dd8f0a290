import {
  InviteListQuerySchema,
  InviteListSchema,
  SubdomainParamsSchema,
  USER_LOOKUP_IDENTIFIERS,
  UserBySocialSchema,
  type UserLookupIdentifier,
  UserLookupQuerySchema,
  UserPathParamsSchema,
  UserSchema,
} from '@questkit/core';
import { apiError } from '../http/errors.js';
import { ok } from '../http/result.js';
import { defineRoute } from '../http/route.js';
import type { CommunityRecord, UserRecord } from '../store/records.js';
import type { Store, UserIdentifierKind } from '../store/store.js';
import { inviteListItem, userById, userBySocial } from '../views/users.js';

/** The member of the community with this id, deleted or not; undefined when not a member. */
export function findMember(store: Store, community: CommunityRecord, userId: string) {
  const user = store.users.get(userId);
  return user && user.communityId === community.id ? user : undefined;
}

/** The 404 of a member that is not in the community. */
export const memberNotFound = (userId: string, community: CommunityRecord) =>
  apiError(404, `User ${userId} not found in community ${community.subdomain}`);

/** GET /users/{userId} */
export const getUser = defineRoute({
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
  handle({ params, community }, { store }) {
    const user = findMember(store, community, params.userId);
    if (!user) return memberNotFound(params.userId, community);
    return ok(userById(store, user));
  },
});

const IDENTIFIER_KINDS: Record<UserLookupIdentifier, UserIdentifierKind> = {
  discordId: 'discordId',
  discordHandle: 'discordHandle',
  twitterUsername: 'twitterUsername',
  twitterId: 'twitterId',
  ethAddress: 'ethAddress',
  email: 'email',
  blockchainAddress: 'blockchainAddress',
};

/** GET /users?discordId=...&email=... */
export const lookupUser = defineRoute({
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
  handle({ query, community }, { store }) {
    let found: UserRecord | undefined;
    for (const parameter of USER_LOOKUP_IDENTIFIERS) {
      const value = query[parameter];
      if (!value) continue;
      const id = store.users.findIdByIdentifier(
        community.id,
        IDENTIFIER_KINDS[parameter],
        value,
        parameter === 'blockchainAddress' ? query.blockchainNetwork : undefined,
      );
      if (id === undefined || (found && found.id !== id)) {
        return apiError(404, 'No member of this community matches every identifier given');
      }
      found = store.users.get(id);
    }
    if (!found || found.deletedAt !== null) {
      return apiError(404, 'No member of this community matches every identifier given');
    }
    return ok(userBySocial(store, found));
  },
});

/** GET /users/{userId}/invites?page=1 */
export const listInvites = defineRoute({
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
  params: UserPathParamsSchema,
  query: InviteListQuerySchema,
  response: { name: 'InviteList', schema: InviteListSchema },
  errors: [400, 401, 403, 404, 429],
  handle({ params, query, community }, { store }) {
    if (!findMember(store, community, params.userId)) {
      return memberNotFound(params.userId, community);
    }
    const matching = store.invites
      .listByInviter(params.userId)
      .filter(
        (invite) =>
          (query.status === undefined || invite.status === query.status) &&
          (query.invitesQuestId === undefined || invite.questId === query.invitesQuestId),
      );
    const start = (query.page - 1) * query.page_size;
    return ok(
      matching.slice(start, start + query.page_size).map((invite) => inviteListItem(store, invite)),
    );
  },
});
