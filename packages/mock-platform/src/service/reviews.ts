import type { ReviewMark, ReviewStatus } from '@questkit/core/api';
import type { Principal } from '../auth/principal.js';
import type { MockContext } from '../context.js';
import { type ApiFailure, apiError } from '../errors.js';
import { randomId } from '../ids.js';
import {
  type CommunityRecord,
  isBanned,
  type QuestRecord,
  type UserRecord,
} from '../store/records.js';
import type {
  ReviewEventRecord,
  ReviewerRecord,
  ReviewRecord,
  ReviewTaskRecord,
} from '../store/reviews.js';
import { claimHistory } from './claim-rules.js';
import { grantXp } from './xp.js';

// Reviews of claimed quests: a claim of a quest that needs review opens one (pending); a reviewer
// decides it (success or fail, with a star or a flag), or sends a decision back to pending; a ban
// cancels the member's pending ones. Every decision's effects on the member (xp, karma, star and
// flag counts, the claim itself) are kept on the review (`granted`), so going back to pending
// withdraws exactly them: a member's numbers always equal the sum of their reviews' decisions.
// Each decision is told to `context.hooks.reviewsDecided` (the service turns it into webhook events).

/** Karma a star adds, and a flag takes away (the documentation says only "raises" and "lowers"). */
export const KARMA_PER_MARK = 1;

const NOTHING_GRANTED = { xp: 0, karma: 0, stars: 0, flags: 0 } as const;

/** The xp rewards of a quest (`type: xp`), added up. */
export function questXp(quest: QuestRecord): number {
  let xp = 0;
  for (const reward of quest.rewards) {
    const value = Number(reward.value);
    if (reward.type === 'xp' && Number.isFinite(value)) xp += value;
  }
  return xp;
}

/** Whether a claim of the quest waits for a reviewer: the quest does not validate itself. */
export function needsReview(quest: QuestRecord): boolean {
  return !quest.autoValidate;
}

/** The member's pending review of the quest, if any: a second claim waits for it. */
export function pendingReviewOf(
  context: MockContext,
  userId: string,
  questId: string,
): ReviewRecord | undefined {
  return context.store.reviews
    .listByUser(userId)
    .find((review) => review.questId === questId && review.status === 'pending');
}

/**
 * Opens a pending review of a claim whose automatic tasks passed: the api tasks show `success`,
 * the others (what a person must look at) `in-review`.
 */
export function openReview(
  context: MockContext,
  quest: QuestRecord,
  user: UserRecord,
  submissions: Readonly<Record<string, Partial<ReviewTaskRecord>>> = {},
): ReviewRecord {
  const at = context.clock.now().toISOString();
  const review: ReviewRecord = {
    id: randomId(),
    communityId: quest.communityId,
    userId: user.id,
    questId: quest.id,
    status: 'pending',
    mark: null,
    tasks: quest.tasks.map((task) => ({
      ...submissions[task.id],
      id: task.id,
      type: task.type,
      status: task.type === 'api' ? 'success' : 'in-review',
      createdAt: at,
    })),
    comment: null,
    granted: { ...NOTHING_GRANTED },
    createdAt: at,
    updatedAt: at,
  };
  context.store.reviews.put(review);
  return review;
}

/** Who acts, as review events name them: the member of a token, or the API key (its name). */
export function reviewerOf(context: MockContext, principal: Principal): ReviewerRecord {
  if (principal.kind === 'member') {
    const member = context.store.users.get(principal.userId);
    return { id: principal.userId, name: member?.name ?? null, avatar: member?.avatar ?? null };
  }
  const key = context.store.apiKeys.list().find((candidate) => candidate.id === principal.keyId);
  return { id: principal.keyId, name: key?.name ?? 'API key', avatar: null };
}

/** A change of the member's xp, karma and counts (negative to withdraw). */
interface Effects {
  xp: number;
  karma: number;
  stars: number;
  flags: number;
}

/**
 * Applies a decision's change to the member: the xp through the XP ledger (`grantXp`: an entry
 * of the quest, so the leaderboards and sprints count it; the level and rank follow), then karma
 * and the star and flag counts.
 */
function applyEffects(
  context: MockContext,
  community: CommunityRecord,
  review: ReviewRecord,
  quest: QuestRecord | undefined,
  change: Effects,
  at: string,
): void {
  const questName = quest?.name ?? review.questId;
  const grants: { xp: number; label: string }[] = [];
  if (change.xp > 0) {
    const reward = quest ? questXp(quest) : 0;
    if (reward > 0) grants.push({ xp: reward, label: questName });
    if (change.xp - reward > 0)
      grants.push({ xp: change.xp - reward, label: `Review bonus: ${questName}` });
  } else if (change.xp < 0) {
    grants.push({ xp: change.xp, label: `Review withdrawn: ${questName}` });
  }
  for (const grant of grants) {
    // Checked beforehand (decideReviews): the member is not banned and stays at 0 xp or more.
    grantXp(context, community, review.userId, { ...grant, questId: review.questId });
  }
  const user = context.store.users.get(review.userId);
  if (!user || (change.karma === 0 && change.stars === 0 && change.flags === 0)) return;
  context.store.users.put({
    ...user,
    karma: user.karma + change.karma,
    stars: Math.max(0, user.stars + change.stars),
    flags: Math.max(0, user.flags + change.flags),
    updatedAt: at,
  });
}

/** Counts (or, with -1, uncounts) a successful claim: the claim rules and the quest's claim count. */
function countClaim(context: MockContext, review: ReviewRecord, delta: 1 | -1, at: string): void {
  const { store } = context;
  const quest = store.quests.get(review.questId);
  const user = store.users.get(review.userId);
  if (!quest || !user) return;
  store.quests.update(quest.id, { claimCount: Math.max(0, quest.claimCount + delta) });
  const history = claimHistory(store, user, quest);
  const claims = Math.max(0, history.claims + delta);
  // A withdrawn success that was the member's only claim leaves no claim for recurrence to see.
  const lastClaimedAt = delta === 1 ? at : claims === 0 ? null : history.lastClaimedAt;
  store.claims.put({ ...history, claims, lastClaimedAt });
}

/** What a decision grants the member. */
function effectsOf(
  quest: QuestRecord | undefined,
  status: ReviewStatus,
  mark: ReviewMark | null,
  bonusXP: number,
): Effects {
  const stars = mark === 'star' ? 1 : 0;
  const flags = mark === 'flag' ? 1 : 0;
  return {
    xp: status === 'success' ? (quest ? questXp(quest) : 0) + bonusXP : 0,
    karma: (stars - flags) * KARMA_PER_MARK,
    stars,
    flags,
  };
}

/** What a reviewer asks. */
export interface ReviewDecision {
  claimedQuestIds: readonly string[];
  status: ReviewStatus;
  comment?: string;
  mark?: ReviewMark;
  bonusXP?: number;
}

/** Why a review cannot take the status asked, or null when it can. */
function transitionRefusal(
  context: MockContext,
  review: ReviewRecord,
  status: ReviewStatus,
): string | null {
  const member = context.store.users.get(review.userId);
  if (member && isBanned(member)) {
    return `Review ${review.id} is of a banned member: it can no longer change`;
  }
  if (!member || member.deletedAt !== null) {
    return `Review ${review.id} is of a deleted member: it can no longer change`;
  }
  if (review.status === status) return `Review ${review.id} is already ${status}`;
  if (review.status !== 'pending' && status !== 'pending') {
    return `Review ${review.id} is ${review.status}: set it to pending before ${status}`;
  }
  return null;
}

/**
 * Decides reviews of the community. Every id is checked first (404 unknown, 409 a refused
 * transition): either all of them change or none does.
 */
export function decideReviews(
  context: MockContext,
  community: CommunityRecord,
  reviewer: ReviewerRecord,
  decision: ReviewDecision,
): ReviewRecord[] | ApiFailure {
  const { store } = context;
  const reviews: ReviewRecord[] = [];
  for (const id of decision.claimedQuestIds) {
    const review = store.reviews.get(id);
    if (!review || review.communityId !== community.id) {
      return apiError(404, `Claimed quest ${id} not found in community ${community.subdomain}`);
    }
    const refused = transitionRefusal(context, review, decision.status);
    if (refused) return apiError(409, refused);
    reviews.push(review);
  }
  const at = context.clock.now().toISOString();
  const mark = decision.mark ?? null;
  const bonusXP = decision.bonusXP ?? 0;
  const plans = reviews.map((review) => {
    const quest = store.quests.get(review.questId);
    const granted =
      decision.status === 'pending'
        ? { ...NOTHING_GRANTED }
        : effectsOf(quest, decision.status, mark, bonusXP);
    const change = {
      xp: granted.xp - review.granted.xp,
      karma: granted.karma - review.granted.karma,
      stars: granted.stars - review.granted.stars,
      flags: granted.flags - review.granted.flags,
    };
    return { review, quest, granted, change };
  });
  // Withdrawing xp the member no longer has would take them below 0, which the ledger refuses.
  const xpAfter = new Map<string, number>();
  for (const { review, change } of plans) {
    const xp = (xpAfter.get(review.userId) ?? store.users.get(review.userId)?.xp ?? 0) + change.xp;
    if (xp < 0) {
      return apiError(
        409,
        `Review ${review.id}: withdrawing its ${-change.xp} xp would take the member below 0 xp`,
      );
    }
    xpAfter.set(review.userId, xp);
  }
  const decided: ReviewRecord[] = [];
  const told: DecidedReview[] = [];
  for (const { review, quest, granted, change } of plans) {
    const firstDecision = !store.reviews
      .events(review.id)
      .some((event) => event.type === 'success' || event.type === 'error');
    applyEffects(context, community, review, quest, change, at);
    if (decision.status === 'success') countClaim(context, review, 1, at);
    if (review.status === 'success') countClaim(context, review, -1, at);
    const taskStatus =
      decision.status === 'success'
        ? 'success'
        : decision.status === 'fail'
          ? 'error'
          : 'in-review';
    const next: ReviewRecord = {
      ...review,
      status: decision.status,
      mark,
      comment: decision.comment ?? null,
      granted,
      tasks: review.tasks.map((task) =>
        task.type === 'api' ? task : { ...task, status: taskStatus },
      ),
      updatedAt: at,
    };
    store.reviews.put(next);
    store.reviews.addEvent(eventOf(review, decision, reviewer, at));
    decided.push(next);
    told.push({ review: next, firstDecision });
  }
  context.hooks?.reviewsDecided?.(community, told, reviewer);
  return decided;
}

/** A review as a decision left it, and whether this was the claim's first decision. */
export interface DecidedReview {
  review: ReviewRecord;
  /** No success or fail decided it before (a later change is a status update). */
  firstDecision: boolean;
}

function eventOf(
  review: ReviewRecord,
  decision: ReviewDecision,
  reviewer: ReviewerRecord,
  at: string,
): ReviewEventRecord {
  const base = {
    id: randomId(),
    reviewId: review.id,
    communityId: review.communityId,
    createdAt: at,
    reviewer,
  };
  if (decision.status === 'success') {
    return {
      ...base,
      type: 'success',
      message: decision.comment ?? 'Approved',
      bonusXP: decision.bonusXP ?? null,
    };
  }
  if (decision.status === 'fail') {
    return { ...base, type: 'error', message: decision.comment ?? 'Refused', bonusXP: null };
  }
  return {
    ...base,
    type: 'cancel',
    message: `The ${review.status} decision was withdrawn: back to pending`,
    bonusXP: null,
  };
}
