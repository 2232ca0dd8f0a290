import { created, empty, ok } from '../http/result.js';
import { bindRoute } from '../http/route.js';
import { randomHex } from '../ids.js';
import { findMember, memberNotFound } from '../members.js';

/** POST /member: any key may ask of any community, as the community lookup. */
export const checkMember = bindRoute('checkMember', ({ body, community }, { store }) => {
  const user = findMember(store, community, body.userId);
  // A deleted member is no longer a member; a banned one still is (role banned).
  if (!user || user.deletedAt !== null) return memberNotFound(body.userId, community);
  return empty();
});

/** Characters of the secret shown as its prefix: enough to tell two secrets apart. */
const SECRET_PREFIX_LENGTH = 8;

/** POST /secrets: a new secret replaces the community's (rotation); shown this once. */
export const createSecret = bindRoute('createSecret', ({ community }, { store, clock }) => {
  const secret = `cs_${randomHex(32)}`;
  const createdAt = clock.now().toISOString();
  store.communities.put({ ...community, connectSecret: secret, connectSecretCreatedAt: createdAt });
  return created({ secret, prefix: secret.slice(0, SECRET_PREFIX_LENGTH), createdAt });
});

/** GET /secrets: which secret is in use, never the secret itself. */
export const getSecret = bindRoute('getSecret', ({ community }) =>
  ok({
    prefix: community.connectSecret.slice(0, SECRET_PREFIX_LENGTH),
    createdAt: community.connectSecretCreatedAt ?? community.createdAt,
  }),
);

/** GET /users/{userId}/referral-code */
export const getReferralCode = bindRoute(
  'getReferralCode',
  async ({ params, community }, { store, referralCodes }) => {
    const user = findMember(store, community, params.userId);
    if (!user || user.deletedAt !== null) return memberNotFound(params.userId, community);
    return ok({ code: await referralCodes.code(user.id) });
  },
);
