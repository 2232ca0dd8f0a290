import { REVIEW_LIST_LIMIT_DEFAULT } from '@questkit/core/api';
import type { MockContext } from '../context.js';
import { apiError, invalid } from '../errors.js';
import { decodeCursor, encodeCursor } from '../http/cursor.js';
import { ok } from '../http/result.js';
import { bindRoute } from '../http/route.js';
import { decideReviews, reviewerOf } from '../service/reviews.js';
import type { CommunityRecord } from '../store/records.js';
import type { ReviewRecord } from '../store/reviews.js';
import { byTimeThenId, lowerBound } from '../store/sorted.js';
import { reviewEventView, reviewView } from '../views/reviews.js';

// The review routes: the queue of claimed quests, one review, the review action and a review's
// events. The counts of `/reviews/users/{id}` (reviews.ts) follow the action's stars and flags.

const reviewOrder = byTimeThenId<ReviewRecord>((review) => review.createdAt);

function findReview(context: MockContext, community: CommunityRecord, reviewId: string) {
  const review = context.store.reviews.get(reviewId);
  return review && review.communityId === community.id ? review : undefined;
}

const reviewNotFound = (reviewId: string, community: CommunityRecord) =>
  apiError(404, `Review ${reviewId} not found in community ${community.subdomain}`);

/** GET /reviews?questId=&userId=&status=&limit=&cursor= */
export const listReviews = bindRoute('listReviews', ({ query, community }, { store }) => {
  const all = store.reviews.listByCommunity(community.id);
  let start = 0;
  if (query.cursor) {
    const after = decodeCursor(query.cursor);
    if (!after) return invalid('query', 'cursor', 'is not a cursor this API returned');
    start = lowerBound(all, after as ReviewRecord, reviewOrder);
    if (all[start]?.id === after.id) start += 1;
  }
  const limit = query.limit ?? REVIEW_LIST_LIMIT_DEFAULT;
  const items: ReviewRecord[] = [];
  let index = start;
  for (; index < all.length && items.length < limit; index++) {
    const review = all[index]!;
    if (query.questId !== undefined && review.questId !== query.questId) continue;
    if (query.userId !== undefined && review.userId !== query.userId) continue;
    if (query.status !== undefined && review.status !== query.status) continue;
    items.push(review);
  }
  // More may follow only when the page is full and reviews are left to look at.
  const more = items.length === limit && index < all.length;
  return ok({
    items: items.map((review) => reviewView(store, review)),
    nextCursor: more ? encodeCursor(items.at(-1)!) : null,
  });
});

/** GET /reviews/{reviewId} */
export const getReview = bindRoute('getReview', ({ params, community }, context) => {
  const review = findReview(context, community, params.reviewId);
  if (!review) return reviewNotFound(params.reviewId, community);
  return ok(reviewView(context.store, review));
});

/** POST /reviews */
export const reviewClaims = bindRoute('reviewClaims', ({ body, community, principal }, context) => {
  const decided = decideReviews(context, community, reviewerOf(context, principal), body);
  if ('kind' in decided) return decided;
  return ok({
    reviewedClaimQuestIds: decided.map((review) => review.id),
    status: body.status,
    comment: body.comment ?? null,
  });
});

/** GET /reviews/{reviewId}/events */
export const listReviewEvents = bindRoute('listReviewEvents', ({ params, community }, context) => {
  const review = findReview(context, community, params.reviewId);
  if (!review) return reviewNotFound(params.reviewId, community);
  return ok({ items: context.store.reviews.events(review.id).map(reviewEventView) });
});
