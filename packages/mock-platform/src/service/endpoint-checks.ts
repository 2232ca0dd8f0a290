import type { VerificationRequest, Violation } from '@questkit/core';
import type { MockContext } from '../context.js';
import { randomId } from '../ids.js';
import type { QuestRecord, QuestTaskRecord } from '../store/records.js';
import { probeAccounts } from './accounts.js';
import type { Tracker } from './tracker.js';
import { callVerificationEndpoint } from './verification-call.js';

// The platform's automatic checks of a verification endpoint: one probe call shaped like a claim
// of an unknown member, judged with core's checkVerificationAnswer. An endpoint passes when it
// answers 200 or 400 with a showable {message} in time; a 400 "member not found" is a pass.

/** What started a check. */
export type EndpointCheckTrigger = 'quest-created' | 'manual';

/** The record of one automatic check. */
export interface EndpointCheck {
  id: string;
  /** When the check started (platform clock). */
  at: string;
  trigger: EndpointCheckTrigger;
  endpoint: string;
  /** The quest and task that configured the endpoint; null for a manual check. */
  communityId: string | null;
  questId: string | null;
  taskId: string | null;
  /** Whether the probe carried `X-Api-Key` (the key itself is never recorded). */
  apiKeySent: boolean;
  /** `running` until the answer (or the time limit) came. */
  state: 'running' | 'done';
  /** true when no violation is an error; null while running. */
  passed: boolean | null;
  status: number | null;
  /** The message of the answer, when it had a showable one. */
  message: string | null;
  error: string | null;
  durationMs: number | null;
  violations: Violation[];
  /**
   * The task key, judged by comparing the answer with the answer to the same call with a wrong
   * key: `refused` (the endpoint answers the task key as it answers a wrong one: every claim will
   * fail), `unchecked` (it answers a wrong key as the right one: anyone can claim), `accepted`,
   * or `not_judged` (no key set, or no answer to compare). A refused or unchecked key fails the check.
   */
  key: { verdict: 'accepted' | 'refused' | 'unchecked' | 'not_judged'; message: string } | null;
}

/** What to check by hand. */
export interface EndpointCheckInput {
  endpoint: string;
  apiKey?: string;
}

/** Which checks to list. */
export interface EndpointCheckFilter {
  endpoint?: string;
  questId?: string;
}

/** Automatic endpoint checks and their records. */
export interface EndpointChecks {
  /** Checks an endpoint now; resolves with the finished record. */
  check(input: EndpointCheckInput): Promise<EndpointCheck>;
  /** Starts the checks of every API task of a new quest, in the background. */
  questCreated(quest: QuestRecord): void;
  /** Records, oldest first. */
  list(filter?: EndpointCheckFilter): EndpointCheck[];
  /** Forgets every record. */
  clear(): void;
}

type Call = Awaited<ReturnType<typeof callVerificationEndpoint>>;

/** The key the comparison call sends. */
export const WRONG_KEY = 'questkit-mock-wrong-key';

/**
 * Sends the same probe with a wrong key and compares: the platform's three checks alone call an
 * endpoint that refuses the task key healthy, while every member's claim then fails.
 */
async function judgeKey(
  endpoint: string,
  body: VerificationRequest,
  apiKey: string | undefined,
  call: Call,
  timeoutMs: number,
): Promise<NonNullable<EndpointCheck['key']>> {
  if (apiKey === undefined || apiKey === '') {
    return {
      verdict: 'not_judged',
      message: 'The task has no API key: anyone can call the endpoint.',
    };
  }
  const status = call.response?.status;
  if (status !== 200 && status !== 400) {
    return {
      verdict: 'not_judged',
      message: 'No answer of 200 or 400 to compare with a wrong key.',
    };
  }
  const wrong = await callVerificationEndpoint(
    endpoint,
    { ...body, requestId: randomId() },
    // A fixed wrong key, never one derived from the task's: an endpoint may log what it refuses.
    { apiKey: apiKey === WRONG_KEY ? `${WRONG_KEY}-2` : WRONG_KEY, timeoutMs },
  );
  if (wrong.response?.status !== status || wrong.message !== call.message) {
    return {
      verdict: 'accepted',
      message: 'The endpoint answers the task key and a wrong key differently.',
    };
  }
  return status === 200
    ? {
        verdict: 'unchecked',
        message:
          'The endpoint answers a wrong API key as it answers the task key: it does not check the key, and anyone can claim.',
      }
    : {
        verdict: 'refused',
        message: `The endpoint answers the task's API key exactly as a wrong key ("${call.message ?? ''}"): it refuses the task key, or checks no key at all. Every member's claim will get that answer: set the endpoint's key to the task's.`,
      };
}

/** The endpoint check engine; keeps the last `size` records. */
export function createEndpointChecks(
  context: MockContext,
  deps: { tracker: Tracker; timeoutMs: number; size: number },
): EndpointChecks {
  let records: EndpointCheck[] = [];

  const run = async (
    endpoint: string,
    apiKey: string | undefined,
    trigger: EndpointCheckTrigger,
    target: {
      communityId: string;
      subdomain: string;
      quest: QuestRecord;
      task: QuestTaskRecord;
    } | null,
  ): Promise<EndpointCheck> => {
    const record: EndpointCheck = {
      id: randomId(),
      at: context.clock.now().toISOString(),
      trigger,
      endpoint,
      communityId: target?.communityId ?? null,
      questId: target?.quest.id ?? null,
      taskId: target?.task.id ?? null,
      apiKeySent: apiKey !== undefined && apiKey !== '',
      state: 'running',
      passed: null,
      status: null,
      message: null,
      error: null,
      durationMs: null,
      violations: [],
      key: null,
    };
    records.push(record);
    if (records.length > deps.size) records = records.slice(records.length - deps.size);
    const body: VerificationRequest = {
      userId: randomId(),
      communityId: target?.communityId ?? randomId(),
      subdomain: target?.subdomain ?? 'questkit-endpoint-check',
      questId: target?.quest.id ?? randomId(),
      requestId: randomId(),
    };
    const accounts = target ? probeAccounts(target.task) : undefined;
    if (accounts) body.accounts = accounts;
    const call = await callVerificationEndpoint(endpoint, body, {
      apiKey,
      timeoutMs: deps.timeoutMs,
    });
    const key = await judgeKey(endpoint, body, apiKey, call, deps.timeoutMs);
    // The record is shared with the list: finishing it in place updates what GET shows.
    Object.assign(record, {
      state: 'done',
      passed:
        !call.violations.some((violation) => violation.severity === 'error') &&
        key.verdict !== 'refused' &&
        key.verdict !== 'unchecked',
      key,
      status: call.response?.status ?? null,
      message: call.message,
      error: call.error,
      durationMs: call.durationMs,
      violations: call.violations,
    } satisfies Partial<EndpointCheck>);
    return record;
  };

  return {
    check: (input) => deps.tracker.track(run(input.endpoint, input.apiKey, 'manual', null)),
    questCreated(quest) {
      const community = context.store.communities.get(quest.communityId);
      if (!community) return;
      for (const task of quest.tasks) {
        if (task.type !== 'api' || !task.settings.endpoint) continue;
        void deps.tracker.track(
          run(task.settings.endpoint, task.settings.apiKey, 'quest-created', {
            communityId: community.id,
            subdomain: community.subdomain,
            quest,
            task,
          }),
        );
      }
    },
    list(filter = {}) {
      return records
        .filter(
          (record) =>
            (filter.endpoint === undefined || record.endpoint === filter.endpoint) &&
            (filter.questId === undefined || record.questId === filter.questId),
        )
        .map((record) => ({ ...record }));
    },
    clear() {
      records = [];
    },
  };
}
