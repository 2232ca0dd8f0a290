import type { IdentificationMethod, VerificationRequest } from '@questkit/core';
import type { MockContext } from '../context.js';
import { randomId } from '../ids.js';
import type {
  CommunityRecord,
  QuestRecord,
  QuestTaskRecord,
  UserRecord,
} from '../store/records.js';
import { buildAccounts, linkRequest } from './accounts.js';
import type { TaskReport } from './claim-result.js';
import type { Outbound } from './outbound/outbound.js';
import type { CallJournal } from './recorded-calls.js';
import { callVerificationEndpoint } from './verification-call.js';

// A claim's verification calls: the body each API task is sent (with the accounts the task asks
// for), then the calls in the quest's order, stopping at the first task that does not pass.

/** What the claim is about, as every task's call carries it. */
export interface ClaimSubject {
  community: CommunityRecord;
  quest: QuestRecord;
  user: UserRecord;
  requestId: string;
}

/** A task that was not called: the claim was refused, or an earlier task did not pass. */
export const skipped = (task: QuestTaskRecord): TaskReport => ({
  taskId: task.id,
  endpoint: task.settings.endpoint ?? null,
  outcome: 'skipped',
  request: null,
  response: null,
  error: null,
  message: null,
  durationMs: null,
  violations: [],
  checks: null,
});

/**
 * Each task's body, or, when the member has not linked an account a task asks for, every method
 * missing and the sentence that asks for them.
 */
export function claimBodies(
  context: MockContext,
  { community, quest, user, requestId }: ClaimSubject,
  tasks: readonly QuestTaskRecord[],
): { bodies: VerificationRequest[] } | { missing: IdentificationMethod[]; message: string } {
  const connections = context.store.connections.listByUser(user.id);
  const bodies: VerificationRequest[] = [];
  const missing = new Set<IdentificationMethod>();
  const asks: string[] = [];
  for (const task of tasks) {
    const accounts = buildAccounts(user, task, connections);
    if (!accounts.ok) {
      for (const method of accounts.missing) {
        if (missing.has(method)) continue;
        missing.add(method);
        asks.push(linkRequest(method, task));
      }
      continue;
    }
    const body: VerificationRequest = {
      userId: user.id,
      communityId: community.id,
      subdomain: community.subdomain,
      questId: quest.id,
      requestId,
    };
    if (accounts.accounts) body.accounts = accounts.accounts;
    bodies.push(body);
  }
  if (missing.size > 0) {
    return { missing: [...missing], message: `To claim this quest, ${asks.join(' and ')}.` };
  }
  return { bodies };
}

/** The tasks' calls, in order: every report, the first that did not pass, the last message. */
export interface TaskCalls {
  reports: TaskReport[];
  failure: TaskReport | undefined;
  lastMessage: string;
}

/**
 * Calls each task's endpoint with its body, in order, and records each call in the journal; the
 * tasks after the first that does not pass are skipped.
 */
export async function callTasks(
  context: MockContext,
  deps: { journal: CallJournal; timeoutMs: number; outbound: Outbound },
  { community, quest, user, requestId }: ClaimSubject,
  tasks: readonly QuestTaskRecord[],
  bodies: readonly VerificationRequest[],
): Promise<TaskCalls> {
  const reports: TaskReport[] = [];
  let failure: TaskReport | undefined;
  let lastMessage = 'Quest claimed.';
  for (const [index, task] of tasks.entries()) {
    if (failure) {
      reports.push(skipped(task));
      continue;
    }
    const at = context.clock.now().toISOString();
    const endpoint = task.settings.endpoint;
    const call = endpoint
      ? await callVerificationEndpoint(endpoint, bodies[index]!, {
          apiKey: task.settings.apiKey,
          timeoutMs: deps.timeoutMs,
          post: (url, options) => deps.outbound.post('claim', url, options),
        })
      : undefined;
    const report: TaskReport = call
      ? { taskId: task.id, endpoint: endpoint ?? null, ...call }
      : { ...skipped(task), outcome: 'fault', error: 'the task has no endpoint' };
    reports.push(report);
    if (call && endpoint) {
      deps.journal.record({
        id: randomId(),
        at,
        requestId,
        subdomain: community.subdomain,
        communityId: community.id,
        questId: quest.id,
        taskId: task.id,
        userId: user.id,
        ...call,
      });
    }
    if (report.message !== null) lastMessage = report.message;
    if (report.outcome !== 'verified') failure = report;
  }
  return { reports, failure, lastMessage };
}
