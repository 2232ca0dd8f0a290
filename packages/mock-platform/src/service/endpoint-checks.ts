import {
  type CheckResult,
  CLAIM_PROBE_ID,
  type ConformanceReport,
  type Finding,
  type PlatformVerdict,
  type RunVerdict,
  runConformance,
} from '@questkit/conformance';
import type { IdentificationMethod } from '@questkit/core';
import { PLATFORM_CHECKS, type Violation } from '@questkit/core/api';
import type { MockContext } from '../context.js';
import { randomId } from '../ids.js';
import type { QuestRecord } from '../store/records.js';
import { taskMethods } from './accounts.js';
import type { BackgroundWork } from './background-work.js';
import type { Outbound } from './outbound/outbound.js';
import { matches } from './recent-records.js';

// The platform's automatic checks of a verification endpoint, judged by the very code of
// `questkit check` (its platform tier): the claims the platform sends for the task (its claim
// shapes, the task's key, a drifted key), each judged on the three checks. Given the same
// endpoint, key and identification methods, both reach the same platform verdict, worded alike.

/** What started a check. */
export type EndpointCheckTrigger = 'quest-created' | 'manual';

/** One call of a check, as judged. */
export interface JudgedCall {
  id: string;
  title: string;
  status: CheckResult['status'];
  findings: Finding[];
  /** The answer's status; null when none came. */
  answerStatus: number | null;
  /** Why no answer came. */
  error: string | null;
  durationMs: number;
}

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
  /** Whether the calls carried `X-Api-Key` (the key itself is never recorded). */
  apiKeySent: boolean;
  /** The identification methods the claims were shaped for; null: every shape the contract allows. */
  identifications: IdentificationMethod[] | null;
  /**
   * `running` until every call was answered (or its time limit passed); `skipped` when the key
   * holder already had as many automatic checks queued as the mock allows (`outbound.checksPerKey`).
   */
  state: 'running' | 'done' | 'skipped';
  /** The platform tier's verdict (the same as `questkit check`'s); null while running. */
  verdict: RunVerdict | null;
  /**
   * true when the verdict is `pass` and the task key is neither refused nor unchecked; false
   * when it failed; null while running or when nothing could be judged (no answer).
   */
  passed: boolean | null;
  /** The platform's verdict per automatic check; null while running. */
  platform: PlatformVerdict | null;
  /** One sentence when every call got the same wrong answer (a 404, a refused connection). */
  headline: string | null;
  /** Every call of the check, judged. */
  calls: JudgedCall[];
  /** The well-formed claim's answer status, message, error and duration, and its violations. */
  status: number | null;
  message: string | null;
  error: string | null;
  durationMs: number | null;
  violations: Violation[];
  /**
   * The task key, judged by comparing the answers with the task key and with a wrong or no key:
   * `refused` (the task key is answered as a wrong one: every claim will fail), `unchecked` (a
   * wrong or missing key gets a 200: anyone can call the endpoint and set off what it does),
   * `accepted`, or `not_judged` (no key set, no answer to compare, or the same refusal to every
   * key, which cannot tell: the message says how to judge it). A refused or unchecked key fails
   * the check; a key not judged does not.
   */
  key: { verdict: 'accepted' | 'refused' | 'unchecked' | 'not_judged'; message: string } | null;
  /**
   * Set when the endpoint answered, then stopped answering mid-check (it probably crashed on a
   * call the platform sends): the sentence that says where. It fails the check; null otherwise.
   */
  stoppedAnswering: string | null;
}

/** What to check by hand. */
export interface EndpointCheckInput {
  endpoint: string;
  /** The task's key; without it the task has none, and no key is sent. */
  apiKey?: string;
  /** The task's identification methods; without them every shape the contract allows. */
  identifications?: IdentificationMethod[];
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
  /**
   * Queues the checks of every API task of a new quest, created by the key holder `by`: one at a
   * time per key holder and community, at most `outbound.checksPerKey`; the rest are skipped.
   */
  questCreated(quest: QuestRecord, by: string): void;
  /** Records, oldest first. */
  list(filter?: EndpointCheckFilter): EndpointCheck[];
  /** Forgets every record. */
  clear(): void;
}

/** The key verdict, read from the member verdict `member.api-key` of the same judge. */
function keyOf(report: ConformanceReport): NonNullable<EndpointCheck['key']> {
  const check = report.checks.find((c) => c.id === 'member.api-key');
  const finding = check?.findings[0];
  if (
    !check ||
    check.status === 'skip' ||
    check.status === 'not_judged' ||
    check.status === 'warn'
  ) {
    return {
      verdict: 'not_judged',
      message: finding?.message ?? check?.skipReason ?? 'Nothing to compare.',
    };
  }
  if (check.status === 'pass') {
    return {
      verdict: 'accepted',
      message: 'The endpoint answers the task key and a wrong or missing key differently.',
    };
  }
  const refused = check.findings.some((f) => f.code === 'key-refused');
  return { verdict: refused ? 'refused' : 'unchecked', message: finding?.message ?? '' };
}

/** The platform tier's verdict: a warning (a slow answer, a content type) still passes. */
function platformVerdict(report: ConformanceReport): RunVerdict {
  const tier = report.summary.tiers.platform;
  if (tier === 'fail') return 'fail';
  return tier === 'pass' || tier === 'warn' ? 'pass' : 'not_judged';
}

function judgedCall(check: CheckResult): JudgedCall {
  return {
    id: check.id,
    title: check.title,
    status: check.status,
    findings: check.findings,
    answerStatus: check.received?.status ?? null,
    error: check.received?.timedOut ? 'timed out' : (check.received?.error ?? null),
    durationMs: Math.round(check.received?.elapsedMs ?? check.durationMs),
  };
}

/** The well-formed claim's answer and the findings of the platform's checks on it. */
function claimOf(
  report: ConformanceReport,
): Pick<EndpointCheck, 'status' | 'message' | 'error' | 'durationMs' | 'violations'> {
  const claim = report.checks.find((c) => c.id === CLAIM_PROBE_ID);
  const received = claim?.received;
  const violations: Violation[] = (claim?.findings ?? []).flatMap((f) =>
    f.rule in PLATFORM_CHECKS
      ? [
          {
            check: f.rule as keyof typeof PLATFORM_CHECKS,
            severity: f.severity,
            message: f.message,
          },
        ]
      : [],
  );
  return {
    status: received?.status ?? null,
    message: report.summary.claim?.message ?? null,
    error: received?.timedOut ? 'timed out' : (received?.error ?? null),
    durationMs: received ? Math.round(received.elapsedMs) : null,
    violations,
  };
}

/** The endpoint check engine; keeps the last `size` records. */
export function createEndpointChecks(
  context: MockContext,
  deps: { tracker: BackgroundWork; timeoutMs: number; size: number; outbound: Outbound },
): EndpointChecks {
  let records: EndpointCheck[] = [];

  type Target = { communityId: string; subdomain: string; questId: string; taskId: string };
  const newRecord = (
    input: EndpointCheckInput,
    trigger: EndpointCheckTrigger,
    target: Target | null,
    state: EndpointCheck['state'],
  ): EndpointCheck => {
    const record: EndpointCheck = {
      id: randomId(),
      at: context.clock.now().toISOString(),
      trigger,
      endpoint: input.endpoint,
      communityId: target?.communityId ?? null,
      questId: target?.questId ?? null,
      taskId: target?.taskId ?? null,
      apiKeySent: input.apiKey !== undefined && input.apiKey !== '',
      identifications: input.identifications ? [...input.identifications] : null,
      state,
      verdict: null,
      passed: null,
      platform: null,
      headline: null,
      calls: [],
      status: null,
      message: null,
      error: null,
      durationMs: null,
      violations: [],
      key: null,
      stoppedAnswering: null,
    };
    records.push(record);
    if (records.length > deps.size) records = records.slice(records.length - deps.size);
    return record;
  };
  // Automatic checks by key holder and community: run one at a time, at most `checksPerKey`.
  const queues = new Map<string, { pending: number; tail: Promise<unknown> }>();

  const run = async (
    input: EndpointCheckInput,
    trigger: EndpointCheckTrigger,
    target: Target | null,
  ): Promise<EndpointCheck> => {
    const apiKey = input.apiKey === '' ? undefined : input.apiKey;
    const record = newRecord(input, trigger, target, 'running');
    const report = await runConformance({
      url: input.endpoint,
      // A task without a key: the platform sends none, so there is no key to drift.
      ...(apiKey !== undefined ? { apiKey } : { noApiKey: true }),
      ...(input.identifications ? { identifications: input.identifications } : {}),
      tiers: ['platform'],
      timeoutMs: deps.timeoutMs,
      // Every call of the check through the mock's one outbound gate; a refusal is no answer.
      fetch: (input, init) =>
        deps.outbound.run(
          'endpoint-check',
          input instanceof Request ? input.url : String(input),
          () => fetch(input, init),
          deps.timeoutMs,
        ),
      member: {
        userId: randomId(),
        ...(target ? { communityId: target.communityId, subdomain: target.subdomain } : {}),
        ...(target ? { questId: target.questId } : {}),
      },
    });
    const verdict = platformVerdict(report);
    const key = keyOf(report);
    const keyFails = key.verdict === 'refused' || key.verdict === 'unchecked';
    const stopped = report.stoppedAnswering?.message ?? null;
    // The record is shared with the list: finishing it in place updates what GET shows.
    Object.assign(record, {
      state: 'done',
      verdict,
      // A server that stopped answering fails, though the calls after it judged nothing.
      passed:
        stopped !== null
          ? false
          : verdict === 'not_judged'
            ? null
            : verdict === 'pass' && !keyFails,
      stoppedAnswering: stopped,
      platform: report.summary.platform,
      headline: report.summary.headline ?? null,
      calls: report.checks.filter((c) => c.tier === 'platform').map(judgedCall),
      key,
      ...claimOf(report),
    } satisfies Partial<EndpointCheck>);
    return record;
  };

  return {
    check: (input) => deps.tracker.track(run(input, 'manual', null)),
    questCreated(quest, by) {
      const community = context.store.communities.get(quest.communityId);
      if (!community) return;
      const owner = `${community.id} ${by}`;
      for (const task of quest.tasks) {
        if (task.type !== 'api' || !task.settings.endpoint) continue;
        const input: EndpointCheckInput = {
          endpoint: task.settings.endpoint,
          identifications: taskMethods(task),
          ...(task.settings.apiKey ? { apiKey: task.settings.apiKey } : {}),
        };
        const target = {
          communityId: community.id,
          subdomain: community.subdomain,
          questId: quest.id,
          taskId: task.id,
        };
        const queue = queues.get(owner) ?? { pending: 0, tail: Promise.resolve() };
        queues.set(owner, queue);
        if (queue.pending >= deps.outbound.checksPerKey) {
          const skipped = newRecord(input, 'quest-created', target, 'skipped');
          skipped.error = `skipped: ${deps.outbound.checksPerKey} automatic checks of this key holder are already queued or running in ${community.subdomain}`;
          continue;
        }
        queue.pending += 1;
        const previous = queue.tail;
        const job = (async () => {
          await previous;
          try {
            return await run(input, 'quest-created', target);
          } finally {
            queue.pending -= 1;
            if (queue.pending === 0) queues.delete(owner);
          }
        })();
        queue.tail = job.catch(() => undefined);
        void deps.tracker.track(job);
      }
    },
    list(filter = {}) {
      return records.filter((record) => matches(record, filter)).map((record) => ({ ...record }));
    },
    clear() {
      records = [];
    },
  };
}
