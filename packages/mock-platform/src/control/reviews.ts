import { ReviewActionBodySchema, ReviewStatusSchema } from '@questkit/core';
import { Hono } from 'hono';
import * as z from 'zod';
import type { MockContext } from '../context.js';
import { apiError } from '../errors.js';
import { toResponse } from '../http/pipeline.js';
import { DEMO } from '../seed/demo-ids.js';
import { decideReviews } from '../service/reviews.js';
import type { ReviewerRecord } from '../store/reviews.js';
import { reviewEventView, reviewView } from '../views/reviews.js';
import { readBody, readQuery } from './request.js';

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
 * `GET /communities/{subdomain}/reviews?status=` (the review queue, oldest first, 100 at most,
 * each review with its events; seeded ones marked `demo: true`) and `POST
 * /communities/{subdomain}/reviews` (the review action's body and rules; the answer is the
 * decided reviews).
 */
export function reviewControlRoutes(context: MockContext): Hono {
  const routes = new Hono();
  const { store } = context;
  const community = (subdomain: string) => store.communities.getBySubdomain(subdomain);
  const notFound = (subdomain: string) =>
    toResponse(apiError(404, `Community "${subdomain}" not found`));

  routes.get('/communities/:subdomain/reviews', (c) => {
    const found = community(c.req.param('subdomain'));
    if (!found) return notFound(c.req.param('subdomain'));
    const query = readQuery(c.req.raw, QueueQuerySchema);
    if (!query.ok) return query.response;
    const reviews = store.reviews
      .listByCommunity(found.id)
      .filter((review) => !query.data.status || review.status === query.data.status)
      .slice(0, QUEUE_LIMIT);
    return c.json(
      reviews.map((review) => ({
        ...reviewView(store, review),
        demo: DEMO_REVIEW_IDS.has(review.id),
        events: store.reviews.events(review.id).map(reviewEventView),
      })),
    );
  });

  routes.post('/communities/:subdomain/reviews', async (c) => {
    const found = community(c.req.param('subdomain'));
    if (!found) return notFound(c.req.param('subdomain'));
    const body = await readBody(c.req.raw, ReviewActionBodySchema);
    if (!body.ok) return body.response;
    const decided = decideReviews(context, found, CONTROL_REVIEWER, body.data);
    if ('kind' in decided) return toResponse(decided);
    return c.json(decided.map((review) => reviewView(store, review)));
  });
  return routes;
}
