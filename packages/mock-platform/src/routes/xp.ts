import { empty, ok } from '../http/result.js';
import { bindRoute } from '../http/route.js';
import { reviewerOf } from '../service/reviews.js';
import { banMember, grantXp } from '../service/xp.js';
import { xpEntryView } from '../views/leaderboard.js';

/** POST /users/{userId}/xp */
export const addXp = bindRoute('addXp', ({ params, body, community }, context) => {
  const entry = grantXp(context, community, params.userId, body);
  return 'kind' in entry ? entry : ok(xpEntryView(entry));
});

/** DELETE /users/{userId}/xp: the entry's xp is the negative change. */
export const removeXp = bindRoute('removeXp', ({ params, body, community }, context) => {
  const entry = grantXp(context, community, params.userId, { ...body, xp: -body.xp });
  return 'kind' in entry ? entry : ok(xpEntryView(entry));
});

/** POST /users/{userId}/ban */
export const banUser = bindRoute('banUser', ({ params, body, community, principal }, context) => {
  const by = reviewerOf(context, principal);
  const banned = banMember(context, community, params.userId, body.reason ?? null, by);
  return 'kind' in banned ? banned : empty();
});
