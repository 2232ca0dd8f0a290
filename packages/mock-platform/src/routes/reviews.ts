import { ReviewCountsSchema, ReviewPathParamsSchema } from '@questkit/core';
import { ok } from '../http/result.js';
import { defineRoute } from '../http/route.js';
import { reviewCounts } from '../views/users.js';
import { findMember, memberNotFound } from './users.js';

/** GET /reviews/users/{id} */
export const getReviewCounts = defineRoute({
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
  handle({ params, community }, { store }) {
    const user = findMember(store, community, params.id);
    if (!user) return memberNotFound(params.id, community);
    return ok(reviewCounts(user));
  },
});
