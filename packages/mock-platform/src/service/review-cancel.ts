import type { MockContext } from '../context.js';
import { randomId } from '../ids.js';
import type { ReviewerRecord, ReviewRecord } from '../store/reviews.js';

// What a ban does to the member's reviews, apart from the rest of the review service so the ban
// (service/xp.ts) needs nothing else of it: a pending review grants nothing, so cancelling one
// touches no xp, karma or count.

/**
 * Cancels the member's pending reviews (a ban): each becomes `fail`, without mark, with a `cancel`
 * event naming the reason. Decided reviews keep their decision. Returns the cancelled reviews.
 */
export function cancelPendingReviews(
  context: Pick<MockContext, 'store' | 'clock'>,
  userId: string,
  reviewer: ReviewerRecord,
  reason: string | null,
): ReviewRecord[] {
  const { store } = context;
  const at = context.clock.now().toISOString();
  const cancelled: ReviewRecord[] = [];
  for (const review of [...store.reviews.listByUser(userId)]) {
    if (review.status !== 'pending') continue;
    const next: ReviewRecord = {
      ...review,
      status: 'fail',
      mark: null,
      comment: null,
      tasks: review.tasks.map((task) =>
        task.status === 'in-review' ? { ...task, status: 'error' } : task,
      ),
      updatedAt: at,
    };
    store.reviews.put(next);
    store.reviews.addEvent({
      id: randomId(),
      reviewId: review.id,
      communityId: review.communityId,
      createdAt: at,
      type: 'cancel',
      message: `Cancelled: the member was banned${reason ? ` (${reason})` : ''}`,
      bonusXP: null,
      reviewer,
    });
    cancelled.push(next);
  }
  return cancelled;
}
