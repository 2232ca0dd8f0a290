import { DEFAULT_MESSAGES } from '@questkit/core';
import { readsAsKeyRefusal } from './key-refusal.js';
import { CLAIM_PROBE_ID } from './probes.js';
import type { StoppedAnswering } from './stopped-answering.js';
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
  /** Set when the server answered, then stopped answering (see `stoppedAnswering`). */
  stopped?: StoppedAnswering;
}

/** The ids of the member verdicts, in the order they are reported. */
export const MEMBER_VERDICT_IDS = ['member.api-key', 'member.answer', 'member.stays-up'] as const;

interface Answer {
  status?: number;
  message?: string;
  timedOut: boolean;
  refusal?: string;
  error?: string;
}

// The message as core's check read it from the whole answer, never from the report's display copy.
function answerOf(check: CheckResult | undefined): Answer | undefined {
  const received = check?.received;
  if (!received) return undefined;
  return {
    status: received.status,
    message: received.message,
    timedOut: received.timedOut === true,
    ...(received.refusal !== undefined ? { refusal: received.refusal } : {}),
    ...(received.error !== undefined ? { error: received.error } : {}),
  };
}

const same = (a: Answer | undefined, b: Answer | undefined) =>
  a?.status !== undefined && a.status === b?.status && a.message === b?.message;

const quote = (answer: Answer) =>
  answer.message === undefined
    ? `${answer.status} (no JSON message)`
    : `${answer.status} "${answer.message}"`;

// No status came back: the call judged nothing, so it is never "answered differently".
const unanswered = (answer: Answer | undefined) =>
  answer !== undefined && answer.status === undefined;

const TITLES: Record<(typeof MEMBER_VERDICT_IDS)[number], string> = {
  'member.api-key': 'The endpoint accepts the task key and refuses others',
  'member.answer': 'A well-formed claim reaches your handler and gets its answer',
  'member.stays-up': 'The server keeps answering: no request the run sent stopped it',
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
  return [
    keyVerdict(claim, byId, context),
    answerVerdict(claim, context),
    staysUpVerdict(byId, context),
  ];
}

/**
 * A server that stopped answering in the middle of the run: the request that stopped it can be
 * sent by anyone, so every member is refused until it restarts. Shows the request it stopped at.
 */
function staysUpVerdict(
  byId: (id: string) => CheckResult | undefined,
  context: VerdictContext,
): CheckResult {
  const { stopped } = context;
  if (stopped === undefined) return verdict('member.stays-up', []);
  const shown = byId(stopped.at[0] ?? stopped.after);
  return {
    ...verdict('member.stays-up', [fail(stopped.message)]),
    ...(shown?.sent ? { sent: shown.sent } : {}),
    ...(shown?.received ? { received: shown.received } : {}),
    ...(shown?.curl ? { curl: shown.curl } : {}),
  };
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
        'the task has no API key: anyone who finds the endpoint can call it, learn whether a member qualifies, and set off whatever it does itself. Set a key on the task and check X-Api-Key.',
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
  if (wrong === undefined && missing === undefined) {
    // Nothing to compare the task key's answer with: never a pass.
    return unjudged(
      'member.api-key',
      'skip',
      'no claim with a wrong or missing key was sent (run without --only, or with --only auth.)',
    );
  }
  const accepted = [
    [wrong, 'a wrong X-Api-Key'],
    [missing, 'no X-Api-Key'],
  ] as const;
  const taken = accepted.filter(([answer]) => answer?.status === 200);
  const silent = accepted.filter(([answer]) => unanswered(answer));
  if (taken.length === 0 && silent.length > 0) {
    const what = silent.map(([, what]) => `the claim with ${what}`).join(' and ');
    return unjudged(
      'member.api-key',
      'not_judged',
      `${what} got no answer (${silent[0]![0]!.error ?? 'the request failed'}), so nothing tells whether the endpoint checks the key.`,
    );
  }
  if (taken.length > 0) {
    const unchecked = claim.status === 200 && taken.every(([answer]) => same(claim, answer));
    const what = taken.map(([, what]) => what).join(' or ');
    const fix = `Check X-Api-Key against the task key and answer 400 {message} when it differs.`;
    return verdict('member.api-key', [
      unchecked
        ? fail(
            `it does not check the key: a claim with ${what} gets the same answer as yours, ${quote(claim)}. A direct call awards nothing on the platform, but anyone who finds the URL can call it, learn whether a member qualifies, and set off whatever your endpoint does itself (a role, a reward, a write). ${fix}`,
            'key-unchecked',
          )
        : fail(
            `accepted a claim with ${what} (${quote(taken[0]![0]!)}): anyone who finds the URL can call it, learn whether a member qualifies, and set off whatever your endpoint does itself. ${fix}`,
            'key-accepted',
          ),
    ]);
  }
  const ran = [wrong, missing].filter((answer) => answer !== undefined);
  if (ran.length > 0 && ran.every((answer) => same(claim, answer))) {
    // Identical answers alone cannot tell a member who does not qualify from a wrong key, but
    // words that refuse a key are evidence: every member would read them.
    if (readsAsKeyRefusal(claim.message)) {
      return verdict('member.api-key', [
        fail(
          `your endpoint refuses the key you gave: the task key, a wrong key and no key all got ${quote(claim)}, which reads as a refused key. Every member would see "${claim.message}" on every claim: set the endpoint's key to the task's API key.`,
          'key-refused',
        ),
      ]);
    }
    return unjudged(
      'member.api-key',
      'not_judged',
      `the task key, a wrong key and no key all got the same answer, ${quote(claim)}: identical answers cannot tell whether the endpoint checks the key. To judge it, claim as a member who qualifies: --user-id <id> --accounts '<their accounts as JSON>' --expect-pass (the task key must then get 200, a wrong key must not).`,
    );
  }
  if (same(claim, wrong) || same(claim, missing)) {
    // The endpoint tells a wrong key from a missing one, and answers the task's as one of them.
    return verdict('member.api-key', [
      fail(
        `your endpoint refuses the key you gave: a claim with it gets the same answer as one with ${same(claim, wrong) ? 'a wrong' : 'no'} key, ${quote(claim)}. Members will see that message on every claim: set the endpoint's key to the task's API key.`,
        'key-refused',
      ),
    ]);
  }
  return verdict('member.api-key', []);
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
  if (claim.refusal !== undefined) {
    findings.push(
      warn(
        `a well-formed claim got 200 with ${claim.refusal} in its JSON: the platform reads only the status, so it credits the member. Answer 400 {message} when the claim is refused.`,
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
