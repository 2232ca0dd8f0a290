import type { ReviewRecord } from '../store/reviews.js';
import type { Store } from '../store/store.js';
import { DEMO, seedUuid } from './demo-ids.js';

// The demo's reviews: three claims of "Visit our partner" (a quest that does not validate itself),
// one in each state, so the review queue, a review's events and the review counts have something
// to show. The members' seeded xp, karma, stars and flags already include what the decided ones
// granted (`granted`), so sending one back to pending withdraws it from numbers that hold it.

const EPOCH = Date.parse('2025-01-01T00:00:00.000Z');
const at = (days: number) => new Date(EPOCH + days * 86_400_000).toISOString();

/** Writes the demo reviews and their events (after the members and quests). */
export function seedDemoReviews(store: Store): void {
  const quest = DEMO.quests.partnership;
  const task = seedUuid('50000000', 7);
  const ada = store.users.get(DEMO.users.admin);
  const reviewer = { id: DEMO.users.admin, name: ada?.name ?? null, avatar: ada?.avatar ?? null };
  const review = (
    id: string,
    userId: string,
    day: number,
    fields: Partial<ReviewRecord>,
  ): ReviewRecord => ({
    id,
    communityId: DEMO.communityId,
    userId,
    questId: quest,
    status: 'pending',
    mark: null,
    tasks: [
      {
        id: task,
        type: 'partnership',
        status: 'in-review',
        createdAt: at(day),
        value: `https://sandbox.example/visits/${userId.slice(-2)}`,
      },
    ],
    comment: null,
    granted: { xp: 0, karma: 0, stars: 0, flags: 0 },
    createdAt: at(day),
    updatedAt: at(day),
    ...fields,
  });
  const withTask = (status: 'success' | 'error') => (r: ReviewRecord) => ({
    ...r,
    tasks: r.tasks.map((t) => ({ ...t, status })),
  });
  const reviews = [
    review(DEMO.reviews.pending, DEMO.users.walletOnly, 30, {}),
    withTask('success')(
      review(DEMO.reviews.starred, DEMO.users.editor, 25, {
        status: 'success',
        mark: 'star',
        comment: 'A great write-up of the visit',
        granted: { xp: 150, karma: 1, stars: 1, flags: 0 },
        updatedAt: at(26),
      }),
    ),
    withTask('error')(
      review(DEMO.reviews.flagged, DEMO.users.reviewer, 27, {
        status: 'fail',
        mark: 'flag',
        comment: 'The link shows another site',
        granted: { xp: 0, karma: -1, stars: 0, flags: 1 },
        updatedAt: at(28),
      }),
    ),
  ];
  for (const record of reviews) store.reviews.put(record);
  store.reviews.addEvent({
    id: seedUuid('71000000', 1),
    reviewId: DEMO.reviews.starred,
    communityId: DEMO.communityId,
    createdAt: at(26),
    type: 'success',
    message: 'A great write-up of the visit',
    bonusXP: 50,
    reviewer,
  });
  store.reviews.addEvent({
    id: seedUuid('71000000', 2),
    reviewId: DEMO.reviews.flagged,
    communityId: DEMO.communityId,
    createdAt: at(28),
    type: 'error',
    message: 'The link shows another site',
    bonusXP: null,
    reviewer,
  });
  // ben's accepted claim counts as a claim of the quest (recurrence once: he cannot claim again).
  store.claims.put({
    communityId: DEMO.communityId,
    userId: DEMO.users.editor,
    questId: quest,
    claims: 1,
    lastClaimedAt: at(26),
    lastFailedAt: null,
  });
  store.quests.update(quest, { claimCount: 1, claimCounter: 1 });
}
