import { ok } from '../http/result.js';
import { bindRoute } from '../http/route.js';
import { findMember, memberNotFound } from '../members.js';
import { reviewCounts } from '../views/users.js';

/** GET /reviews/users/{id} */
export const getReviewCounts = bindRoute('getReviewCounts', ({ params, community }, { store }) => {
  const user = findMember(store, community, params.id);
  if (!user) return memberNotFound(params.id, community);
  return ok(reviewCounts(user));
});
