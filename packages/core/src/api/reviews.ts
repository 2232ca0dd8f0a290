import {
  REVIEW_LIST_LIMIT_MAX,
  ReviewActionBodySchema,
  ReviewActionResponseSchema,
  ReviewEventListSchema,
  ReviewIdParamsSchema,
  ReviewListQuerySchema,
  ReviewListSchema,
  ReviewSchema,
  SubdomainParamsSchema,
} from '../schemas/index.js';
import { CONTRACT_ERRORS } from './community.js';
import { defineOperation } from './operation.js';

// Reviews of claimed quests. The contract leaves them out; the platform's documentation and real
// client code give the routes and shapes, and every endpoint of the documentation declares the
// same statuses as the contract's webhook routes.

/** GET /reviews?questId=&userId=&status=&limit=&cursor= */
export const listReviews = defineOperation({
  operationId: 'listReviews',
  method: 'get',
  path: '/reviews',
  summary: 'List reviews of claimed quests',
  description:
    'Claimed quests of the community, oldest first (createdAt, then id): the review queue. questId, userId and status ' +
    'keep the matching reviews. Without limit the server chooses the page size (20). nextCursor is an opaque string ' +
    'while more reviews exist and null on the last page; pass it back as cursor.',
  tag: 'Reviews',
  access: 'admin',
  headers: ['x-svc-mcp-client'],
  paging: {
    size: 'limit',
    maxSize: REVIEW_LIST_LIMIT_MAX,
    items: 'items',
    next: { kind: 'answer-field', param: 'cursor', field: 'nextCursor' },
  },
  params: SubdomainParamsSchema,
  query: ReviewListQuerySchema,
  response: { name: 'ReviewList', schema: ReviewListSchema },
  errors: CONTRACT_ERRORS,
});

/** GET /reviews/{reviewId} */
export const getReview = defineOperation({
  operationId: 'getReview',
  method: 'get',
  path: '/reviews/{reviewId}',
  summary: 'A review of a claimed quest',
  description:
    'One claimed quest under review, by its id. The route is not confirmed by the platform’s documentation.',
  tag: 'Reviews',
  access: 'admin',
  headers: ['x-svc-mcp-client'],
  params: ReviewIdParamsSchema,
  response: { name: 'Review', schema: ReviewSchema },
  errors: CONTRACT_ERRORS,
});

/** POST /reviews */
export const reviewClaims = defineOperation({
  operationId: 'reviewClaims',
  method: 'post',
  path: '/reviews',
  summary: 'Review claimed quests',
  description:
    'Sets the status of claimed quests. comment only with success or fail; mark star only with success, flag only with ' +
    'fail; bonusXP only with success and star (400 otherwise). success grants the quest’s rewards (and bonusXP); a star ' +
    'raises the member’s karma and star count, a flag lowers karma and raises the flag count. A decided review goes back ' +
    'to pending before it changes again (withdrawing what it granted); success to fail directly, or the same status ' +
    'again, is a 409, as is a review of a banned member. Every id is checked before any review changes.',
  tag: 'Reviews',
  access: 'write',
  headers: ['x-svc-mcp-client'],
  params: SubdomainParamsSchema,
  body: ReviewActionBodySchema,
  response: { name: 'ReviewActionResponse', schema: ReviewActionResponseSchema },
  errors: CONTRACT_ERRORS,
});

/** GET /reviews/{reviewId}/events */
export const listReviewEvents = defineOperation({
  operationId: 'listReviewEvents',
  method: 'get',
  path: '/reviews/{reviewId}/events',
  summary: "A review's events",
  description:
    'The history of a review, oldest first: success, error (set to fail) and cancel (a decision withdrawn, or the ' +
    'review cancelled by a ban), each with its reviewer.',
  tag: 'Reviews',
  access: 'admin',
  headers: ['x-svc-mcp-client'],
  params: ReviewIdParamsSchema,
  response: { name: 'ReviewEventList', schema: ReviewEventListSchema },
  errors: CONTRACT_ERRORS,
});
