import { type Review, type ReviewEvent, ReviewEventSchema, ReviewSchema } from '@questkit/core/api';
import type { ReviewEventRecord, ReviewRecord } from '../store/reviews.js';
import type { Store } from '../store/store.js';

/** A review as the review routes answer it: the member and the quest named, as they are now. */
export function reviewView(store: Store, review: ReviewRecord): Review {
  const user = store.users.get(review.userId);
  const quest = store.quests.get(review.questId);
  return ReviewSchema.parse({
    ...review,
    user: { id: review.userId, name: user?.name ?? null, avatar: user?.avatar ?? null },
    quest: { id: review.questId, name: quest?.name ?? '' },
  });
}

/** A review event as the events route answers it. */
export function reviewEventView(event: ReviewEventRecord): ReviewEvent {
  return ReviewEventSchema.parse({
    ...event,
    data:
      event.bonusXP === null
        ? { message: event.message }
        : { message: event.message, bonusXP: event.bonusXP },
  });
}
