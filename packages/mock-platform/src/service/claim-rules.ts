import type { QuestCondition } from '@questkit/core/api';
import type { ClaimRecord, InviteRecord, QuestRecord, UserRecord } from '../store/records.js';
import type { Store } from '../store/store.js';

// The rules the platform applies before it calls a community's endpoint: how often a quest may be
// claimed (`recurrence`), how long to wait after a failed try (`retryAfter`), and the quest's
// `conditions`. The contract names the fields and a few values; the meanings below are the mock's,
// listed in the README's conventions table. Every time is read from the platform's clock, so a
// test moves past a rule by advancing the test clock.

/** Why the rules refuse a claim, and what the member reads. */
export interface RuleRefusal {
  reason: 'already-claimed' | 'retry-later' | 'condition-not-met';
  message: string;
}

/** The recurrences the mock knows; any other value counts as `once`. */
export const RECURRENCES = ['once', 'daily', 'weekly', 'monthly'] as const;

const DAY_MS = 86_400_000;

/**
 * The start of the period after the one holding `at`, in UTC: the next midnight (daily), the next
 * Monday (weekly, ISO weeks), the first of the next month (monthly). Null for `once` and unknown
 * values: the quest never opens again.
 */
export function nextPeriodStart(recurrence: string, at: Date): Date | null {
  const midnight = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  if (recurrence === 'daily') return new Date(midnight + DAY_MS);
  if (recurrence === 'weekly') {
    const daysSinceMonday = (at.getUTCDay() + 6) % 7;
    return new Date(midnight + (7 - daysSinceMonday) * DAY_MS);
  }
  if (recurrence === 'monthly')
    return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return null;
}

/** A member's history with a quest, empty when they never tried it. */
export function claimHistory(store: Store, user: UserRecord, quest: QuestRecord): ClaimRecord {
  return (
    store.claims.get(user.id, quest.id) ?? {
      communityId: quest.communityId,
      userId: user.id,
      questId: quest.id,
      claims: 0,
      lastClaimedAt: null,
      lastFailedAt: null,
    }
  );
}

/** The recurrence rule: refused while the last success is in the current period. */
export function recurrenceRefusal(
  quest: QuestRecord,
  history: ClaimRecord,
  now: Date,
): RuleRefusal | null {
  if (history.lastClaimedAt === null) return null;
  const reopens = nextPeriodStart(quest.recurrence, new Date(history.lastClaimedAt));
  if (reopens === null) {
    return { reason: 'already-claimed', message: 'You have already claimed this quest.' };
  }
  if (now < reopens) {
    return {
      reason: 'already-claimed',
      message: `You have already claimed this quest; it opens again on ${memberTime(reopens)}.`,
    };
  }
  return null;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A time as a member reads it: `28 Nov 2026, 00:00 UTC`, not an ISO timestamp. */
export function memberTime(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}, ${two(date.getUTCHours())}:${two(date.getUTCMinutes())} UTC`;
}

/** The `retryAfter` rule: after a failed verification, wait that many seconds. */
export function retryRefusal(
  quest: QuestRecord,
  history: ClaimRecord,
  now: Date,
): RuleRefusal | null {
  const wait = quest.retryAfter ?? 0;
  if (wait <= 0 || history.lastFailedAt === null) return null;
  const retryAt = new Date(Date.parse(history.lastFailedAt) + wait * 1000);
  if (now >= retryAt) return null;
  const seconds = Math.ceil((retryAt.getTime() - now.getTime()) / 1000);
  return {
    reason: 'retry-later',
    message: `Please wait ${seconds} s before trying this quest again (at ${memberTime(retryAt)}).`,
  };
}

/** The active invites of a member, oldest first: the ones an invites condition uses. */
export function activeInvites(store: Store, user: UserRecord): InviteRecord[] {
  return store.invites.listByInviter(user.id).filter((invite) => invite.status === 'active');
}

const COMPARE: Record<string, (actual: number, wanted: number) => boolean> = {
  '=': (a, b) => a === b,
  '!=': (a, b) => a !== b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
};

/** What a failed condition tells the member. */
function unmet(store: Store, user: UserRecord, condition: QuestCondition): string | null {
  const { type, operator, value } = condition;
  const compare = COMPARE[operator];
  const wanted = Number(value);
  if (type === 'level' && compare && Number.isFinite(wanted)) {
    return compare(user.level, wanted)
      ? null
      : `Your level must be ${operator} ${value} (it is ${user.level}).`;
  }
  if (type === 'quest' && operator === 'isCompleted') {
    if ((store.claims.get(user.id, value)?.claims ?? 0) > 0) return null;
    const name = store.quests.get(value)?.name;
    return `Complete the quest ${name ? `"${name}"` : value} first.`;
  }
  if (type === 'invites' && (operator === '>=' || operator === '=') && Number.isInteger(wanted)) {
    const have = activeInvites(store, user).length;
    return have >= wanted
      ? null
      : `Invite ${wanted} members first (you have ${have} active invite${have === 1 ? '' : 's'}).`;
  }
  return `The mock cannot evaluate the condition ${type} ${operator} ${value}.`;
}

/**
 * The conditions rule: every condition met (`conditionOperator` AND, the default for any other
 * value) or one of them (`OR`).
 */
export function conditionRefusal(
  store: Store,
  user: UserRecord,
  quest: QuestRecord,
): RuleRefusal | null {
  if (quest.conditions.length === 0) return null;
  const problems = quest.conditions.map((condition) => unmet(store, user, condition));
  const failed = problems.filter((problem): problem is string => problem !== null);
  const passes =
    quest.conditionOperator === 'OR' ? failed.length < problems.length : failed.length === 0;
  if (passes) return null;
  return { reason: 'condition-not-met', message: failed.join(' ') };
}

/**
 * The invites a successful claim uses: the number an `invites` condition asks for, oldest first.
 * A quest without one uses none.
 */
export function invitesToConsume(
  store: Store,
  user: UserRecord,
  quest: QuestRecord,
): InviteRecord[] {
  let wanted = 0;
  for (const condition of quest.conditions) {
    if (condition.type === 'invites') wanted = Math.max(wanted, Number(condition.value) || 0);
  }
  if (wanted === 0) return [];
  const active = activeInvites(store, user);
  // Under OR the quest may pass on another condition: then it uses no invite.
  return active.length >= wanted ? active.slice(0, wanted) : [];
}

/** The first rule that refuses the claim, before any endpoint is called; null when none does. */
export function ruleRefusal(
  store: Store,
  user: UserRecord,
  quest: QuestRecord,
  now: Date,
): RuleRefusal | null {
  const history = claimHistory(store, user, quest);
  return (
    recurrenceRefusal(quest, history, now) ??
    retryRefusal(quest, history, now) ??
    conditionRefusal(store, user, quest)
  );
}
