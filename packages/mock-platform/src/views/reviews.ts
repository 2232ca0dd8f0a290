import type { Review, ReviewEvent } from '@questkit/core/api';
import type { ReviewEventRecord, ReviewRecord } from '../store/reviews.js';
import type { Store } from '../store/store.js';

/** A review as the review routes answer it: the member and the quest named, as they are now. */
export function reviewView(store: Store, review: ReviewRecord): Review {
  const user = store.users.get(review.userId);
  const quest = store.quests.get(review.questId);
  return {
    id: review.id,
    user: { id: review.userId, name: user?.name ?? null, avatar: user?.avatar ?? null },
    quest: { id: review.questId, name: quest?.name ?? '' },
    status: review.status,
    mark: review.mark,
    tasks: review.tasks.map((task) => ({ ...task })),
    createdAt: review.createdAt,
    updatedAt: review.updatedAt,
  };
}

/** A review event as the events route answers it. */
export function reviewEventView(event: ReviewEventRecord): ReviewEvent {
  return {
    id: event.id,
    createdAt: event.createdAt,
    type: event.type,
    data:
      event.bonusXP === null
        ? { message: event.message }
        : { message: event.message, bonusXP: event.bonusXP },
    reviewer: { ...event.reviewer },
  };
}
