import { DEFAULT_MESSAGES } from '@questkit/core';
import { CLAIM_PROBE_ID } from './probes.js';
import type { CheckResult, Finding } from './types.js';

/** What the member verdicts need to know of the run. */
export interface VerdictContext {
  /** The run sent the task's API key. */
  apiKey: boolean;
  /** The run named the quest (`--quest-id`), so a routing miss is the endpoint's. */
  questId: boolean;
}

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

function verdict(id: string, title: string, findings: Finding[]): CheckResult {
  const status = findings.some((f) => f.severity === 'error')
    ? 'fail'
    : findings.length > 0
      ? 'warn'
      : 'pass';
  return { id, title, group: 'member', status, findings, durationMs: 0 };
}

const fail = (message: string): Finding => ({ rule: 'member', severity: 'error', message });
const warn = (message: string): Finding => ({ rule: 'member', severity: 'warning', message });

/**
 * Verdicts about what a member will see, beyond the platform's three checks: a well-formed claim
 * answered exactly like a wrong key or no key, every claim answered with a handler error, ended at
 * the deadline, or routed to no quest. The platform would call such an endpoint healthy; every
 * member would be refused.
 */
export function memberVerdicts(
  checks: readonly CheckResult[],
  context: VerdictContext,
): CheckResult[] {
  const byId = (id: string) => checks.find((check) => check.id === id);
  const claimCheck = byId(CLAIM_PROBE_ID);
  const claim = answerOf(claimCheck);
  // Nothing came back (unreachable, stopped): nothing to judge for the member either.
  if (!claim || claimCheck?.status === 'skip' || (claim.status === undefined && !claim.timedOut)) {
    return [];
  }
  const verdicts: CheckResult[] = [];

  // The key: compare the well-formed claim's answer with a wrong key's and no key's.
  const wrong = answerOf(byId('auth.wrong-key'));
  const missing = answerOf(byId('auth.missing-key'));
  if (!context.apiKey) {
    verdicts.push(
      verdict('member.api-key', 'The endpoint accepts the task key and refuses others', [
        warn(
          'not judged: no API key was given. Run with --api-key <the task key> to check that your endpoint accepts it and refuses others.',
        ),
      ]),
    );
  } else if (claim.status !== undefined) {
    const findings: Finding[] = [];
    if (same(claim, wrong) || same(claim, missing)) {
      findings.push(
        claim.status === 200
          ? fail(
              `it does not check the key at all: a claim with a wrong or no key gets the same answer as yours, ${quote(claim)}. Anyone could claim the quest: check X-Api-Key against the task key.`,
            )
          : refusesKey(claim.message)
            ? fail(
                `your endpoint refuses the key you gave: a claim with it gets the same answer as a wrong or missing key, ${quote(claim)}. Members will see that message on every claim: set the endpoint's key to the task's API key.`,
              )
            : fail(
                `a claim with your key gets the same answer as one with a wrong or missing key, ${quote(claim)}: either your endpoint refuses the key you gave, or it does not check the key at all. Compare the key it expects with the task's.`,
              ),
      );
    }
    verdicts.push(
      verdict('member.api-key', 'The endpoint accepts the task key and refuses others', findings),
    );
  }

  // What the well-formed claim's answer tells the member.
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
  verdicts.push(
    verdict(
      'member.answer',
      'A well-formed claim reaches your handler and gets its answer',
      findings,
    ),
  );
  return verdicts;
}
