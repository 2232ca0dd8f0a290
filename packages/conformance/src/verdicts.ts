import { DEFAULT_MESSAGES } from '@questkit/core';
import { CLAIM_PROBE_ID } from './probes.js';
import type { CheckResult, Finding } from './types.js';

/** What the member verdicts need to know of the run. */
export interface VerdictContext {
  /** The run sent the task's API key. */
  apiKey: boolean;
  /** The run was told the task has no API key. */
  noApiKey: boolean;
  /** The run named the quest (`--quest-id`), so a routing miss is the endpoint's. */
  questId: boolean;
  /** The run's expectation of the well-formed claim. */
  expect?: 'pass' | 'fail';
}

/** The ids of the member verdicts, in the order they are reported. */
export const MEMBER_VERDICT_IDS = ['member.api-key', 'member.answer'] as const;

interface Answer {
  status?: number;
  message?: string;
  timedOut: boolean;
}

function answerOf(check: CheckResult | undefined): Answer | undefined {
  if (!check?.received) return undefined;
  let message: string | undefined;
  try {
    const parsed = JSON.parse(check.received.body ?? '') as { message?: unknown };
    if (typeof parsed.message === 'string') message = parsed.message;
  } catch {
    message = undefined;
  }
  return { status: check.received.status, message, timedOut: check.received.timedOut === true };
}

const same = (a: Answer | undefined, b: Answer | undefined) =>
  a?.status !== undefined && a.status === b?.status && a.message === b?.message;

// questkit's own refusals of a key, and the words hand-written endpoints use for them.
const refusesKey = (message: string | undefined) =>
  message === DEFAULT_MESSAGES.badKey ||
  message === DEFAULT_MESSAGES.missingKey ||
  /\b(api[ -]?key|x-api-key|unauthori[sz]ed|forbidden)\b/i.test(message ?? '');

const quote = (answer: Answer) => `${answer.status} "${answer.message ?? ''}"`;

const TITLES: Record<(typeof MEMBER_VERDICT_IDS)[number], string> = {
  'member.api-key': 'The endpoint accepts the task key and refuses others',
  'member.answer': 'A well-formed claim reaches your handler and gets its answer',
};

function verdict(id: (typeof MEMBER_VERDICT_IDS)[number], findings: Finding[]): CheckResult {
  const status = findings.some((f) => f.severity === 'error')
    ? 'fail'
    : findings.length > 0
      ? 'warn'
      : 'pass';
  return {
    id,
    title: TITLES[id],
    group: 'member',
    tier: 'members',
    status,
    findings,
    durationMs: 0,
  };
}

function unjudged(
  id: (typeof MEMBER_VERDICT_IDS)[number],
  status: 'skip' | 'not_judged',
  reason: string,
): CheckResult {
  return {
    id,
    title: TITLES[id],
    group: 'member',
    tier: 'members',
    status,
    findings: [],
    skipReason: reason,
    durationMs: 0,
  };
}

const fail = (message: string, code?: Finding['code']): Finding => ({
  rule: 'member',
  severity: 'error',
  message,
  ...(code ? { code } : {}),
});
const warn = (message: string): Finding => ({ rule: 'member', severity: 'warning', message });

/**
 * Verdicts about what a member will see, beyond the platform's three checks: a well-formed claim
 * answered exactly like a wrong key or no key, a wrong or missing key accepted, every claim
 * answered with a handler error, ended at the deadline, or routed to no quest. The platform would
 * call such an endpoint healthy; every member would be refused (or anyone could claim). Always
 * the two checks of {@link MEMBER_VERDICT_IDS}, judged or not.
 */
export function memberVerdicts(
  checks: readonly CheckResult[],
  context: VerdictContext,
): CheckResult[] {
  const byId = (id: string) => checks.find((check) => check.id === id);
  const claimCheck = byId(CLAIM_PROBE_ID);
  const claim = answerOf(claimCheck);
  if (!claimCheck || claimCheck.status === 'skip') {
    const reason = claimCheck?.skipReason ?? 'the well-formed claim was not sent';
    return MEMBER_VERDICT_IDS.map((id) => unjudged(id, 'skip', reason));
  }
  // Nothing came back (unreachable): nothing to judge for the member either.
  if (!claim || (claim.status === undefined && !claim.timedOut)) {
    const reason = 'the well-formed claim got no answer';
    return MEMBER_VERDICT_IDS.map((id) => unjudged(id, 'not_judged', reason));
  }
  return [keyVerdict(claim, byId, context), answerVerdict(claim, context)];
}

/** The key: the well-formed claim's answer against a wrong key's and no key's. */
function keyVerdict(
  claim: Answer,
  byId: (id: string) => CheckResult | undefined,
  context: VerdictContext,
): CheckResult {
  if (context.noApiKey) {
    return verdict('member.api-key', [
      warn(
        'the task has no API key: anyone who finds the endpoint can claim the quest. Set a key on the task and check X-Api-Key.',
      ),
    ]);
  }
  if (!context.apiKey) {
    return unjudged(
      'member.api-key',
      'not_judged',
      'no API key was given: run with --api-key <the task key>, or --no-api-key when the task has none',
    );
  }
  // Only a business answer says anything about the key: a 404 or a 500 to every claim is the
  // path or the server, and the platform checks already say so.
  if (claim.status !== 200 && claim.status !== 400) {
    return unjudged(
      'member.api-key',
      'not_judged',
      'the well-formed claim got no 200 or 400 answer to compare with a wrong key',
    );
  }
  const wrong = answerOf(byId('auth.wrong-key'));
  const missing = answerOf(byId('auth.missing-key'));
  const findings: Finding[] = [];
  if (same(claim, wrong) || same(claim, missing)) {
    findings.push(
      claim.status === 200
        ? fail(
            `it does not check the key at all: a claim with a wrong or no key gets the same answer as yours, ${quote(claim)}. Anyone could claim the quest: check X-Api-Key against the task key.`,
            'key-unchecked',
          )
        : refusesKey(claim.message)
          ? fail(
              `your endpoint refuses the key you gave: a claim with it gets the same answer as a wrong or missing key, ${quote(claim)}. Members will see that message on every claim: set the endpoint's key to the task's API key.`,
              'key-refused',
            )
          : fail(
              `a claim with your key gets the same answer as one with a wrong or missing key, ${quote(claim)}: either your endpoint refuses the key you gave, or it does not check the key at all. Compare the key it expects with the task's.`,
              'key-refused',
            ),
    );
  } else {
    for (const [answer, what] of [
      [wrong, 'with a wrong X-Api-Key'],
      [missing, 'without X-Api-Key'],
    ] as const) {
      if (answer?.status === 200) {
        findings.push(
          fail(
            `accepted a claim ${what} (${quote(answer)}): anyone can claim the task; compare the key and answer 400`,
            'key-accepted',
          ),
        );
      }
    }
  }
  return verdict('member.api-key', findings);
}

/** What the well-formed claim's answer tells the member. */
function answerVerdict(claim: Answer, context: VerdictContext): CheckResult {
  if (!claim.timedOut && claim.status !== 200 && claim.status !== 400) {
    return unjudged(
      'member.answer',
      'not_judged',
      `the well-formed claim got ${claim.status}, not a 200 or 400 answer a member could read`,
    );
  }
  const findings: Finding[] = [];
  if (claim.timedOut || claim.message === DEFAULT_MESSAGES.timeout) {
    findings.push(
      fail(
        `every claim ends at the deadline: members see ${claim.timedOut ? "the platform's timeout error" : `"${DEFAULT_MESSAGES.timeout}"`}. Make the handler answer within the time limit (pass ctx.signal to fetch and database calls).`,
      ),
    );
  } else if (claim.message === DEFAULT_MESSAGES.handlerError) {
    findings.push(
      fail(
        `a well-formed claim is answered with the generic error, "${claim.message}": your verify handler throws or returns something else than ok()/fail(). Look at the endpoint's log (onError) for the error.`,
      ),
    );
  } else if (claim.message === DEFAULT_MESSAGES.unknownQuest) {
    const message = `the claim reached no quest handler: members see "${claim.message}".`;
    findings.push(
      context.questId
        ? fail(
            `${message} The quest id you gave is not routed: check the keys of \`quests\` (an unset environment variable?).`,
          )
        : warn(
            `${message} Run with --quest-id <your quest id> to check a real quest of the endpoint.`,
          ),
    );
  }
  if (context.expect === 'pass' && claim.status === 400) {
    findings.push(expected('answered 400 but the claim is expected to pass (200)'));
  }
  if (context.expect === 'fail' && claim.status === 200) {
    findings.push(expected('answered 200 but the claim is expected to fail (400)'));
  }
  return verdict('member.answer', findings);
}

const expected = (message: string): Finding => ({
  rule: 'expected_status',
  severity: 'error',
  message,
});
