import { USER_LOOKUP_IDENTIFIERS, type UserLookupIdentifier } from '@questkit/core/api';
import { apiError } from '../errors.js';
import { ok, okText } from '../http/result.js';
import { bindRoute } from '../http/route.js';
import { findMember, memberNotFound } from '../members.js';
import type { UserRecord } from '../store/records.js';
import type { UserIdentifierKind } from '../store/store.js';
import { cachedJson } from '../views/answer-cache.js';
import { inviteListItem, userById, userBySocial } from '../views/users.js';

// The answers' texts are kept until the next write (views/answer-cache.ts); a member's answer
// holds no secret, so one text serves every caller.

/** GET /users/{userId} */
export const getUser = bindRoute('getUser', ({ params, community }, { store }) => {
  const user = findMember(store, community, params.userId);
  if (!user) return memberNotFound(params.userId, community);
  return okText(cachedJson(store, `user ${user.id}`, () => JSON.stringify(userById(store, user))));
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
export const lookupUser = bindRoute('lookupUser', ({ query, community }, { store }) => {
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
  const member = found;
  return okText(
    cachedJson(store, `social ${member.id}`, () => JSON.stringify(userBySocial(store, member))),
  );
});

/** GET /users/{userId}/invites?page=1 */
export const listInvites = bindRoute('listInvites', ({ params, query, community }, { store }) => {
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
});
