import { USER_LOOKUP_IDENTIFIERS, type UserLookupIdentifier } from '@questkit/core/api';
import { apiError } from '../errors.js';
import { ok, okText } from '../http/result.js';
import { bindRoute } from '../http/route.js';
import { findMember, memberNotFound } from '../members.js';
import type { UserRecord } from '../store/records.js';
import type { UserIdentifierKind } from '../store/store.js';
import { createJsonCache } from '../views/json-cache.js';
import { inviteListItem, userById, userBySocial, userViewReads } from '../views/users.js';

// The answers' texts, kept per member record while the records the view reads stay the same
// (views/json-cache.ts); a member's answer holds no secret, so there is one variant. Building and
// serializing the member cost about 13 µs of the mock's CPU per request under load: GET
// /users/{userId} ran at 0.65 of the cheapest route, 0.80-0.85 with the cached text
// (`pnpm bench --only mock`, 100k members).
const byIdTexts = createJsonCache<UserRecord>();
const bySocialTexts = createJsonCache<UserRecord>();

/** GET /users/{userId} */
export const getUser = bindRoute('getUser', ({ params, community }, { store }) => {
  const user = findMember(store, community, params.userId);
  if (!user) return memberNotFound(params.userId, community);
  const variant = { dependsOn: userViewReads(store, user), reveal: true };
  return okText(byIdTexts.text(user, variant, () => userById(store, user)));
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
  const variant = { dependsOn: userViewReads(store, member), reveal: true };
  return okText(bySocialTexts.text(member, variant, () => userBySocial(store, member)));
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
