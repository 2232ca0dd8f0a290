import {
  REVIEW_EVENT_TYPES,
  REVIEW_MARKS,
  REVIEW_STATUSES,
  REVIEW_TASK_STATUSES,
  type ReviewMark,
  type ReviewStatus,
} from '@questkit/core/api';
import * as z from 'zod';
import { byTimeThenId, insertSorted, removeSorted } from './sorted.js';

// Reviews of claimed quests and their events: what a claim of a quest that needs review leaves,
// and what reviewers (and bans) do to it. In a file of its own so the review state reads in one
// place; the store (store.ts) holds one of these beside its other resources.

/** A task of a claimed quest as the review keeps it: its state and what the member submitted. */
export interface ReviewTaskRecord {
  id: string;
  type: string;
  status: (typeof REVIEW_TASK_STATUSES)[number];
  createdAt: string;
  value?: string;
  values?: string[];
  fileUrls?: string[];
  tweetId?: string;
}

/** A claimed quest under review. Its id is the claimed quest's id (`claimedQuestIds`). */
export interface ReviewRecord {
  id: string;
  communityId: string;
  userId: string;
  questId: string;
  status: ReviewStatus;
  mark: ReviewMark | null;
  tasks: ReviewTaskRecord[];
  /** The last reviewer's comment; null while pending. */
  comment: string | null;
  /** What the current decision granted the member, so going back to pending withdraws exactly it. */
  granted: { xp: number; karma: number; stars: number; flags: number };
  createdAt: string;
  updatedAt: string;
}

/** Who acted on a review, as its events show them. */
export interface ReviewerRecord {
  id: string;
  name: string | null;
  avatar: string | null;
}

/** One event of a review's history. */
export interface ReviewEventRecord {
  id: string;
  reviewId: string;
  communityId: string;
  createdAt: string;
  type: (typeof REVIEW_EVENT_TYPES)[number];
  message: string;
  bonusXP: number | null;
  reviewer: ReviewerRecord;
}

/** Reviews and their events. */
export interface ReviewStore {
  /** The review with this id. */
  get(id: string): ReviewRecord | undefined;
  /** The reviews of one community, oldest first (createdAt, then id): the review queue's order. */
  listByCommunity(communityId: string): readonly ReviewRecord[];
  /** The reviews of one member, oldest first. */
  listByUser(userId: string): readonly ReviewRecord[];
  /** Inserts or replaces. */
  put(record: ReviewRecord): void;
  /** The events of one review, oldest first. */
  events(reviewId: string): readonly ReviewEventRecord[];
  /** Appends an event to its review's history. */
  addEvent(record: ReviewEventRecord): void;
  /** Every review, in insertion order. */
  list(): Iterable<ReviewRecord>;
  /** Every event, in insertion order. */
  listEvents(): Iterable<ReviewEventRecord>;
}

const reviewOrder = byTimeThenId<ReviewRecord>((review) => review.createdAt);

/** The in-memory review store. */
export function createReviewStore(): ReviewStore {
  const byId = new Map<string, ReviewRecord>();
  const byCommunity = new Map<string, ReviewRecord[]>();
  const byUser = new Map<string, ReviewRecord[]>();
  const eventsByReview = new Map<string, ReviewEventRecord[]>();
  const listOf = <V>(map: Map<string, V[]>, key: string): V[] => {
    let list = map.get(key);
    if (!list) {
      list = [];
      map.set(key, list);
    }
    return list;
  };
  return {
    get: (id) => byId.get(id),
    listByCommunity: (communityId) => byCommunity.get(communityId) ?? [],
    listByUser: (userId) => byUser.get(userId) ?? [],
    put(record) {
      const previous = byId.get(record.id);
      if (previous) {
        removeSorted(listOf(byCommunity, previous.communityId), previous, reviewOrder);
        removeSorted(listOf(byUser, previous.userId), previous, reviewOrder);
      }
      byId.set(record.id, record);
      insertSorted(listOf(byCommunity, record.communityId), record, reviewOrder);
      insertSorted(listOf(byUser, record.userId), record, reviewOrder);
    },
    events: (reviewId) => eventsByReview.get(reviewId) ?? [],
    addEvent(record) {
      listOf(eventsByReview, record.reviewId).push(record);
    },
    list: () => byId.values(),
    *listEvents() {
      for (const events of eventsByReview.values()) yield* events;
    },
  };
}

const timestamp = z.iso.datetime({ offset: true });
const person = z.object({
  id: z.string(),
  name: z.string().nullable(),
  avatar: z.string().nullable(),
});
const count = z.number().int().min(0);

/** A review in a fixtures file. */
export const ReviewRecordSchema = z.object({
  id: z.uuid(),
  communityId: z.uuid(),
  userId: z.uuid(),
  questId: z.uuid(),
  status: z.enum(REVIEW_STATUSES),
  mark: z.enum(REVIEW_MARKS).nullable(),
  tasks: z.array(
    z.object({
      id: z.string(),
      type: z.string(),
      status: z.enum(REVIEW_TASK_STATUSES),
      createdAt: timestamp,
      value: z.string().optional(),
      values: z.array(z.string()).optional(),
      fileUrls: z.array(z.string()).optional(),
      tweetId: z.string().optional(),
    }),
  ),
  comment: z.string().nullable(),
  granted: z.object({ xp: z.number(), karma: z.number(), stars: count, flags: count }),
  createdAt: timestamp,
  updatedAt: timestamp,
});

/** A review event in a fixtures file. */
export const ReviewEventRecordSchema = z.object({
  id: z.uuid(),
  reviewId: z.uuid(),
  communityId: z.uuid(),
  createdAt: timestamp,
  type: z.enum(REVIEW_EVENT_TYPES),
  message: z.string(),
  bonusXP: z.number().int().nullable(),
  reviewer: person,
});
