import type { MockContext, MockHooks } from '../../context.js';
import type { Deliveries } from './deliveries.js';
import { questEventData, sprintEventData, userBannedData } from './event-data.js';

// The events the public API's own actions cause (the mock's choices, platform-docs-notes.md §3
// leaves when each fires open; the README's conventions table lists them):
// - a review's first decision of a claim: QUEST_SUCCEEDED or QUEST_FAILED ("decided on review");
// - any later change of that claim (back to pending, or to the other status):
//   QUEST_CLAIM_STATUS_UPDATED with the new `status`;
// - a ban: USER_BANNED (the pending reviews it cancels fire nothing more).

/** The hooks that turn reviews and bans into webhook events. */
export function eventHooks(
  context: MockContext,
  deliveries: Deliveries,
): Required<Pick<MockHooks, 'reviewsDecided' | 'memberBanned'>> {
  const { store } = context;
  return {
    reviewsDecided(community, decided, reviewer) {
      for (const { review, firstDecision } of decided) {
        const user = store.users.get(review.userId);
        const quest = store.quests.get(review.questId);
        if (!user || !quest) continue;
        const data = questEventData(store, {
          community,
          user,
          quest,
          tasks: review.tasks,
          reviewerId: reviewer.id,
        });
        if (!firstDecision) {
          deliveries.emit(community, 'QUEST_CLAIM_STATUS_UPDATED', {
            ...data,
            status: review.status,
          });
        } else {
          const type = review.status === 'success' ? 'QUEST_SUCCEEDED' : 'QUEST_FAILED';
          deliveries.emit(community, type, data);
        }
      }
    },
    memberBanned(community, user) {
      deliveries.emit(community, 'USER_BANNED', userBannedData(community, user));
    },
  };
}

/** A sprint's start or end on the platform clock. */
interface SprintEdge {
  at: number;
  communityId: string;
  sprintId: string;
  type: 'SPRINT_STARTED' | 'SPRINT_ENDED';
}

/** SPRINT_STARTED and SPRINT_ENDED as the platform clock passes a sprint's start and end. */
export interface SprintEvents {
  /** The first start or end after the last one fired and at most `upTo` (ms); null when none. */
  next(upTo: number): number | null;
  /** Fires every start and end passed since the last call, in time order. */
  fireDue(): void;
  /** Stops the timer of a real clock. */
  stop(): void;
}

// setTimeout's largest delay; a longer wait is re-armed when it fires.
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Watches the sprints of every community (re-read from the store each time, so fixtures count)
 * and fires their starts and ends once the clock passes them. Edges already past when the
 * platform starts never fire. On a manual clock the service calls `next`/`fireDue` as it
 * advances; on a real clock a timer (which never keeps the process alive) does.
 */
export function createSprintEvents(
  context: MockContext,
  deliveries: Deliveries,
  realTimers: boolean,
): SprintEvents {
  const { store, clock } = context;
  let seen = clock.now().getTime();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const edgesAfter = (from: number): SprintEdge[] => {
    const edges: SprintEdge[] = [];
    for (const community of store.communities.list()) {
      for (const sprint of store.sprints.listByCommunity(community.id)) {
        const base = { communityId: community.id, sprintId: sprint.id };
        const start = Date.parse(sprint.startingAt);
        const end = Date.parse(sprint.endingAt);
        if (start > from) edges.push({ ...base, at: start, type: 'SPRINT_STARTED' });
        if (end > from) edges.push({ ...base, at: end, type: 'SPRINT_ENDED' });
      }
    }
    return edges.sort((a, b) => a.at - b.at);
  };

  const arm = () => {
    if (!realTimers) return;
    if (timer) clearTimeout(timer);
    const first = edgesAfter(seen)[0];
    if (!first) return;
    timer = setTimeout(
      () => {
        fireDue();
        arm();
      },
      Math.min(Math.max(0, first.at - clock.now().getTime()), MAX_TIMER_MS),
    );
    (timer as { unref?: () => void }).unref?.();
  };

  const fireDue = () => {
    const now = clock.now().getTime();
    for (const edge of edgesAfter(seen)) {
      if (edge.at > now) break;
      const community = store.communities.get(edge.communityId);
      const sprint = store.sprints.get(edge.sprintId);
      if (community && sprint) {
        deliveries.emit(community, edge.type, sprintEventData(community, sprint));
      }
    }
    seen = Math.max(seen, now);
  };

  arm();
  return {
    next: (upTo) => {
      const first = edgesAfter(seen)[0];
      return first && first.at <= upTo ? first.at : null;
    },
    fireDue,
    stop: () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
