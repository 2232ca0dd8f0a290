import type { MockContext } from '../context.js';
import { type ApiFailure, apiError } from '../errors.js';
import { randomId } from '../ids.js';
import { findMember, memberNotFound } from '../members.js';
import {
  type CommunityRecord,
  isBanned,
  type QuestRecord,
  type UserRecord,
} from '../store/records.js';
import { deliveryView } from '../views/webhooks.js';
import type { BackgroundWork } from './background-work.js';
import { callTasks, claimBodies, skipped } from './claim-calls.js';
import type { ClaimReason, ClaimResult } from './claim-result.js';
import { claimHistory, invitesToConsume, recurrenceRefusal, ruleRefusal } from './claim-rules.js';
import type { Outbound } from './outbound/outbound.js';
import type { CallJournal } from './recorded-calls.js';
import { type ClaimJournal, claimOutcome } from './recorded-claims.js';
import { needsReview, openReview, pendingReviewOf, questXp } from './reviews.js';
import type { Deliveries, Dispatched } from './webhooks/deliveries.js';
import { questEventData } from './webhooks/event-data.js';
import { grantXp } from './xp.js';

/** What to claim. */
export interface ClaimInput {
  subdomain: string;
  questId: string;
  userId: string;
}

/** The claim engine. */
export interface Claims {
  /** Claims a quest as a member; an ApiFailure (404, 409) when the ids do not name a claimable quest. */
  claim(input: ClaimInput): Promise<ClaimResult | ApiFailure>;
}

const FAULT_MESSAGE = 'We could not verify this quest right now. Please try again later.';
const LIMIT_MESSAGE = 'This quest has reached its claim limit.';
const REVIEW_PENDING = {
  reason: 'review-pending',
  message: 'Your claim of this quest is waiting for a reviewer.',
} as const;
const IN_PROGRESS = {
  reason: 'claim-in-progress',
  message: 'Your claim of this quest is being verified; wait for its answer.',
} as const;

function refusal(
  user: UserRecord,
  quest: QuestRecord,
): { reason: ClaimReason; message: string } | null {
  if (user.deletedAt !== null) {
    return { reason: 'member-not-allowed', message: 'This account was deleted.' };
  }
  if (isBanned(user)) {
    return { reason: 'member-not-allowed', message: 'Banned members cannot claim quests.' };
  }
  if (quest.deleted || quest.archived) {
    return { reason: 'quest-unavailable', message: 'This quest is no longer available.' };
  }
  if (!quest.published) {
    return { reason: 'quest-unavailable', message: 'This quest is not published yet.' };
  }
  if (quest.claimLimit > 0 && quest.claimCount >= quest.claimLimit) {
    return { reason: 'claim-limit-reached', message: LIMIT_MESSAGE };
  }
  return null;
}

/**
 * The claim engine. First the platform's rules (member and quest state, claim limit, recurrence,
 * `retryAfter`, conditions, see claim-rules.ts): a refused claim calls no endpoint. Then, for each
 * API task of the quest, in order, the verification call the contract describes; a quest is
 * claimed when every call answers 200, and then uses the invites its conditions ask for. Calls stop at the first task that
 * does not pass. Every call goes to the calls journal, every claim to the claim journal; the claim's event goes to the webhooks.
 */
export function createClaims(
  context: MockContext,
  deps: {
    journal: CallJournal;
    /** Every claim, refusals included (the dashboard's journal). */
    claimJournal: ClaimJournal;
    deliveries: Deliveries;
    tracker: BackgroundWork;
    timeoutMs: number;
    /** The outbound gate every verification call goes through. */
    outbound: Outbound;
  },
): Claims {
  const { store, clock } = context;

  // Events (the mock's choice, platform-docs-notes.md §3 leaves it open): a claim the platform's
  // rules let through is submitted (QUEST_CLAIMED, before any call), then decided at once
  // (QUEST_SUCCEEDED or QUEST_FAILED) or left to a review (which decides it later). A claim
  // refused by the rules before any call was never submitted: no event.
  const submit = (community: CommunityRecord, quest: QuestRecord, user: UserRecord) =>
    deps.deliveries.emit(
      community,
      'QUEST_CLAIMED',
      questEventData(store, { community, user, quest }),
    );

  const finish = async (
    community: CommunityRecord,
    quest: QuestRecord,
    user: UserRecord,
    partial: Omit<ClaimResult, 'deliveries' | 'subdomain' | 'communityId' | 'questId' | 'userId'>,
    submitted?: Dispatched,
  ): Promise<ClaimResult> => {
    const ids = {
      subdomain: community.subdomain,
      communityId: community.id,
      questId: quest.id,
      userId: user.id,
    };
    // Recorded before the deliveries' first tries, so the journal shows the claim at once.
    deps.claimJournal.record({
      ...partial,
      ...ids,
      id: partial.requestId,
      at: clock.now().toISOString(),
      outcome: claimOutcome(partial.reason, partial.message),
      userName: user.name,
      questName: quest.name,
    });
    const dispatched = [submitted];
    if (submitted && partial.status !== 'pending') {
      const member = store.users.get(user.id) ?? user;
      dispatched.push(
        deps.deliveries.emit(
          community,
          partial.status === 'success' ? 'QUEST_SUCCEEDED' : 'QUEST_FAILED',
          questEventData(store, { community, user: member, quest }),
        ),
      );
    }
    const delivered = await Promise.all(dispatched.map((item) => item?.settled ?? []));
    return { ...partial, ...ids, deliveries: delivered.flat().map(deliveryView) };
  };

  /** Notes a verification that did not pass: `retryAfter` counts from it. */
  const noteFailure = (quest: QuestRecord, user: UserRecord): void => {
    const history = claimHistory(store, user, quest);
    store.claims.put({ ...history, lastFailedAt: clock.now().toISOString() });
  };

  /**
   * Counts the claim, uses its invites and adds the xp; a refusal when, while this claim waited
   * for its endpoint, other claims reached the limit or claimed the quest for this period.
   */
  const award = (
    quest: QuestRecord,
    user: UserRecord,
  ): { xp: number } | { refused: { reason: ClaimReason; message: string } } => {
    const now = clock.now();
    const at = now.toISOString();
    const latestQuest = store.quests.get(quest.id) ?? quest;
    if (latestQuest.claimLimit > 0 && latestQuest.claimCount >= latestQuest.claimLimit) {
      return { refused: { reason: 'claim-limit-reached', message: LIMIT_MESSAGE } };
    }
    const history = claimHistory(store, user, quest);
    const again = recurrenceRefusal(latestQuest, history, now);
    if (again) return { refused: again };
    const latestUser = store.users.get(user.id) ?? user;
    const invites = invitesToConsume(store, latestUser, latestQuest);

    store.quests.update(quest.id, { claimCount: latestQuest.claimCount + 1 });
    store.claims.put({ ...history, claims: history.claims + 1, lastClaimedAt: at });
    for (const invite of invites) {
      store.invites.put({ ...invite, status: 'consumed', questId: quest.id });
    }
    const xp = questXp(quest);
    if (xp === 0) return { xp };
    // The reward is an XP entry of the quest: it counts for the leaderboards and the sprints.
    const community = store.communities.get(latestUser.communityId);
    const entry =
      community &&
      grantXp(context, community, latestUser.id, { xp, label: quest.name, questId: quest.id });
    // A member banned while the endpoint answered gets no xp (grantXp refuses).
    return { xp: entry && !('kind' in entry) ? xp : 0 };
  };

  const run = async (input: ClaimInput, busy: boolean): Promise<ClaimResult | ApiFailure> => {
    const community = store.communities.getBySubdomain(input.subdomain);
    if (!community) return apiError(404, `Community "${input.subdomain}" not found`);
    const quest = store.quests.get(input.questId);
    if (!quest || quest.communityId !== community.id) {
      return apiError(404, `Quest ${input.questId} not found in community ${community.subdomain}`);
    }
    const user = findMember(store, community, input.userId);
    if (!user) return memberNotFound(input.userId, community);
    const tasks = quest.tasks.filter((task) => task.type === 'api');
    const reviewed = needsReview(quest);
    if (tasks.length === 0 && !reviewed) {
      return apiError(409, `Quest ${quest.id} has no api task: the mock claims api tasks only`);
    }

    const requestId = randomId();
    const base = { requestId, missingAccounts: [], xpAwarded: 0, reviewId: null };
    const refused =
      refusal(user, quest) ??
      (busy ? IN_PROGRESS : null) ??
      (pendingReviewOf(context, user.id, quest.id) ? REVIEW_PENDING : null) ??
      ruleRefusal(store, user, quest, clock.now());
    if (refused) {
      return finish(community, quest, user, {
        ...base,
        status: 'failed',
        ...refused,
        tasks: tasks.map(skipped),
      });
    }

    const subject = { community, quest, user, requestId };
    const prepared = claimBodies(context, subject, tasks);
    if ('missing' in prepared) {
      return finish(community, quest, user, {
        ...base,
        status: 'failed',
        reason: 'account-not-linked',
        message: prepared.message,
        missingAccounts: prepared.missing,
        tasks: tasks.map(skipped),
      });
    }
    const submitted = submit(community, quest, user);
    const { reports, failure, lastMessage } = await callTasks(
      context,
      deps,
      subject,
      tasks,
      prepared.bodies,
    );

    if (!failure && reviewed) {
      const review = openReview(context, quest, user);
      return finish(
        community,
        quest,
        user,
        {
          ...base,
          status: 'pending',
          reason: 'in-review',
          message: 'Your claim is waiting for a reviewer.',
          reviewId: review.id,
          tasks: reports,
        },
        submitted,
      );
    }
    if (!failure) {
      const awarded = award(quest, user);
      if ('refused' in awarded) {
        return finish(
          community,
          quest,
          user,
          {
            ...base,
            status: 'failed',
            ...awarded.refused,
            tasks: reports,
          },
          submitted,
        );
      }
      return finish(
        community,
        quest,
        user,
        {
          ...base,
          status: 'success',
          reason: 'claimed',
          message: lastMessage,
          xpAwarded: awarded.xp,
          tasks: reports,
        },
        submitted,
      );
    }
    noteFailure(quest, user);
    const notVerified = failure.outcome === 'not-verified';
    return finish(
      community,
      quest,
      user,
      {
        ...base,
        status: notVerified ? 'failed' : 'error',
        reason: notVerified ? 'not-verified' : 'endpoint-fault',
        message: notVerified ? lastMessage : FAULT_MESSAGE,
        tasks: reports,
      },
      submitted,
    );
  };

  // A member's claim of a quest waits for its endpoint; a second one meanwhile is refused before
  // any call, so the rules above see each claim's outcome before the next one starts.
  const inFlight = new Set<string>();
  const claimOnce = async (input: ClaimInput): Promise<ClaimResult | ApiFailure> => {
    const key = `${input.subdomain} ${input.questId} ${input.userId}`;
    if (inFlight.has(key)) return run(input, true);
    inFlight.add(key);
    try {
      return await run(input, false);
    } finally {
      inFlight.delete(key);
    }
  };

  return { claim: (input) => deps.tracker.track(claimOnce(input)) };
}
