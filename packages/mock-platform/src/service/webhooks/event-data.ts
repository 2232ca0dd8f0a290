import type {
  MemberEventData,
  QuestEventData,
  SprintEventData,
  UserBannedData,
  WebhookCommunity,
  WebhookQuest,
  WebhookTaskInput,
  WebhookUser,
} from '@questkit/core/api';
import type {
  CommunityRecord,
  QuestRecord,
  SprintRecord,
  UserRecord,
} from '../../store/records.js';
import type { ReviewTaskRecord } from '../../store/reviews.js';
import type { Store } from '../../store/store.js';
import { questXp } from '../reviews.js';

// The `data` of each event, built from the store as real receivers read it
// (platform-docs-notes.md §3): `community`, `user`, `quest` and `taskInputs` nested. What the
// mock has no field for (a community's Discord, X and website) is null.

/** The community as events show it. */
export function communityData(community: CommunityRecord): WebhookCommunity {
  return {
    id: community.id,
    name: community.name,
    subdomain: community.subdomain,
    blockchain: community.blockchain,
    discord: null,
    twitter: null,
    website: null,
  };
}

/** A member as events show them: their linked accounts, and their verified addresses. */
export function userData(user: UserRecord): WebhookUser {
  return {
    id: user.id,
    name: user.name,
    twitter: user.twitterId ? { id: user.twitterId, username: user.twitterUsername ?? '' } : null,
    discord: user.discordId ? { id: user.discordId, handle: user.discordHandle ?? '' } : null,
    email: user.email,
    addresses: { ...user.verifiedBlockchainAddresses },
  };
}

/** A quest as events show it; `lastReviewerId` is the reviewer of this event's review, if any. */
export function questData(
  store: Store,
  quest: QuestRecord,
  lastReviewerId: string | null = null,
): WebhookQuest {
  return {
    id: quest.id,
    name: quest.name,
    categoryId: quest.categoryId,
    categoryName: store.modules.get(quest.categoryId)?.name ?? null,
    xp: questXp(quest),
    published: quest.published,
    autoValidate: quest.autoValidate,
    tasks: quest.tasks.map((task) => ({ id: task.id, type: task.type })),
    lastReviewerId,
  };
}

/** What the member gave for each task: a review's submissions, or nothing (`{}`: api tasks). */
export function taskInputsData(
  tasks: readonly { id: string; type: string }[] | readonly ReviewTaskRecord[],
): WebhookTaskInput[] {
  return tasks.map((task) => {
    const given = task as Partial<ReviewTaskRecord>;
    const input =
      given.value !== undefined
        ? { value: given.value }
        : given.values !== undefined
          ? { values: [...given.values] }
          : given.fileUrls !== undefined
            ? { fileUrls: [...given.fileUrls] }
            : given.tweetId !== undefined
              ? { tweetId: given.tweetId }
              : {};
    return { taskId: task.id, taskType: task.type, input };
  });
}

/** `data` of `JOINED_COMMUNITY` and `LEFT_COMMUNITY`. */
export function memberEventData(community: CommunityRecord, user: UserRecord): MemberEventData {
  return { community: communityData(community), user: userData(user) };
}

/** `data` of the quest events: the claim's community, member, quest and task inputs. */
export function questEventData(
  store: Store,
  claim: {
    community: CommunityRecord;
    user: UserRecord;
    quest: QuestRecord;
    tasks?: readonly ReviewTaskRecord[];
    reviewerId?: string | null;
  },
): QuestEventData {
  return {
    community: communityData(claim.community),
    user: userData(claim.user),
    quest: questData(store, claim.quest, claim.reviewerId ?? null),
    taskInputs: taskInputsData(claim.tasks ?? claim.quest.tasks),
  };
}

/** `data` of `SPRINT_STARTED` and `SPRINT_ENDED`: the sprint as the sprint list shows it. */
export function sprintEventData(community: CommunityRecord, sprint: SprintRecord): SprintEventData {
  const { communityId: _communityId, ...shown } = sprint;
  return { community: communityData(community), sprint: shown };
}

/** `data` of `USER_BANNED`. */
export function userBannedData(community: CommunityRecord, user: UserRecord): UserBannedData {
  return { community: communityData(community), user: userData(user), reason: user.banReason };
}
