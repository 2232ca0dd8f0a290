import { ReviewActionBodySchema, ReviewStatusSchema } from '@questkit/core/api';
import * as z from 'zod';
import { toResponse } from '../http/pipeline.js';
import { DEMO } from '../seed/demo-ids.js';
import { matches } from '../service/recent-records.js';
import { decideReviews } from '../service/reviews.js';
import type { ReviewerRecord } from '../store/reviews.js';
import { reviewEventView, reviewView } from '../views/reviews.js';
import { communityNotFound } from './request.js';
import { defineControlRoute } from './route.js';

// The review queue for the dashboard and scripts: the same reviews and the same decision as the
// public review routes, without a credential (control routes take none). The reviewer of a
// decision made here is the control route itself, named so in the review's events.

/** Who decides a review through a control route. */
export const CONTROL_REVIEWER: ReviewerRecord = {
  id: 'mock-control',
  name: 'questkit mock (control route)',
  avatar: null,
};

/** Most reviews the queue answers. */
const QUEUE_LIMIT = 100;
const DEMO_REVIEW_IDS: ReadonlySet<string> = new Set(Object.values(DEMO.reviews));

const QueueQuerySchema = z.object({
  status: ReviewStatusSchema.optional().describe(
    'Keep the reviews in this state (all when absent).',
  ),
});

/**
 * The review queue (oldest first, 100 at most, each review with its events; seeded ones marked
 * `demo: true`) and the review action (the body and rules of `POST /reviews`; the answer is the
 * decided reviews).
 */
export const REVIEW_ROUTES = [
  defineControlRoute({
    method: 'GET',
    path: '/__mock/communities/{subdomain}/reviews',
    summary: 'The review queue: claimed quests with their events, oldest first (100 at most)',
    query: 'status=pending',
    querySchema: QueueQuerySchema,
    handle: ({ params, query, c }, { context: { store } }) => {
      const community = store.communities.getBySubdomain(params.subdomain);
      if (!community) return communityNotFound(params.subdomain);
      const reviews = store.reviews
        .listByCommunity(community.id)
        .filter((review) => matches(review, query))
        .slice(0, QUEUE_LIMIT);
      return c.json(
        reviews.map((review) => ({
          ...reviewView(store, review),
          demo: DEMO_REVIEW_IDS.has(review.id),
          events: store.reviews.events(review.id).map(reviewEventView),
        })),
      );
    },
  }),
  defineControlRoute({
    method: 'POST',
    path: '/__mock/communities/{subdomain}/reviews',
    summary: 'Review claimed quests (the rules and effects of POST /reviews)',
    example: {
      claimedQuestIds: ['70000000-0000-4000-8000-000000000001'],
      status: 'success',
      mark: 'star',
      bonusXP: 50,
    },
    bodySchema: ReviewActionBodySchema,
    handle: ({ params, body, c }, { context }) => {
      const community = context.store.communities.getBySubdomain(params.subdomain);
      if (!community) return communityNotFound(params.subdomain);
      const decided = decideReviews(context, community, CONTROL_REVIEWER, body);
      if ('kind' in decided) return toResponse(decided);
      return c.json(decided.map((review) => reviewView(context.store, review)));
    },
  }),
];
