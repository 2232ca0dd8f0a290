import { PLATFORM_TIMEOUT_MS } from './schemas/verification-constants.js';

/** The platform's three automatic checks of a verification endpoint. */
export const PLATFORM_CHECKS = {
  response_time: 'The call completes within 10 seconds',
  message_format: 'The answer carries a message that can be shown to a member',
  status_code: 'No status code other than 200 or 400 is returned',
} as const;

/** The id of one platform check. */
export type PlatformCheck = keyof typeof PLATFORM_CHECKS;

/** One way an answer breaks a platform check. */
export interface Violation {
  check: PlatformCheck;
  /** `error` fails the platform's check; `warning` passes it but is worth fixing. */
  severity: 'error' | 'warning';
  /** What is wrong, in a sentence a developer can act on. */
  message: string;
}

/**
 * An answer of an endpoint, as observed by its caller: the one shape in which the conformance
 * runner and the mock platform record what came back (or why nothing did), and the one that
 * {@link checkVerificationAnswer} judges.
 */
export interface ObservedAnswer {
  /** HTTP status; omit when no answer came (timeout, connection refused). */
  status?: number;
  /** The `content-type` header as received. */
  contentType?: string | null;
  /** The `location` header as received (the target of a redirect, which is never followed). */
  location?: string | null;
  /** The body as text, exactly as received (up to the caller's size limit: see `truncated`). */
  body?: string;
  /** true when the body was longer than the caller's size limit and was cut there. */
  truncated?: boolean;
  /** Time from sending the request to the end of the answer, in ms. */
  elapsedMs: number;
  /** true when the caller gave up waiting (no complete answer in time). */
  timedOut?: boolean;
  /** Set when no answer came at all: why (connection refused, reset, ...). */
  error?: string;
}

/** One check's verdict on an answer: `not_judged` when no answer came to judge, never `pass`. */
export type CheckVerdict = 'pass' | 'warn' | 'fail' | 'not_judged';

/** The verdict on one answer. */
export interface CheckReport {
  /** true when an answer came and no violation is an error. */
  passed: boolean;
  /** false when no answer came at all (refused, reset, ...): there was nothing to judge. */
  judged: boolean;
  /** Each platform check's verdict. */
  checks: Record<PlatformCheck, CheckVerdict>;
  violations: Violation[];
  /** Why nothing was judged, when no answer came. */
  unanswered?: string;
  /** The parsed `message` when the body had one that can be shown. */
  message?: string;
  /**
   * The body's JSON object, when it is one: the platform reads only `message`, but a caller can
   * read the rest without parsing the body again.
   */
  fields?: Readonly<Record<string, unknown>>;
}

/** Time past which the answer passes but is too close to the platform's limit. */
export const SLOW_WARNING_MS = 5_000;

/**
 * Judges one answer of a verification endpoint against the platform's three automatic checks.
 * The mock platform and the conformance runner both use this, so they never disagree.
 *
 * @example
 * const report = checkVerificationAnswer({ status: 500, body: '<html>', elapsedMs: 12 });
 * report.violations.map((v) => v.check); // ['status_code', 'message_format']
 */
export function checkVerificationAnswer(answer: ObservedAnswer): CheckReport {
  // No answer at all (refused, reset, a bad URL): nothing came back to judge, so no check passes
  // and none fails. A timeout is different: the platform's time check fails it.
  if (answer.status === undefined && !answer.timedOut) {
    return {
      passed: false,
      judged: false,
      checks: {
        response_time: 'not_judged',
        message_format: 'not_judged',
        status_code: 'not_judged',
      },
      violations: [],
      unanswered: `no answer: ${answer.error ?? 'the request failed'}`,
    };
  }
  const violations: Violation[] = [];
  const add = (check: PlatformCheck, message: string, severity: Violation['severity'] = 'error') =>
    violations.push({ check, severity, message });

  if (answer.timedOut || answer.elapsedMs > PLATFORM_TIMEOUT_MS) {
    add('response_time', `no complete answer within ${PLATFORM_TIMEOUT_MS} ms`);
  } else if (answer.elapsedMs > SLOW_WARNING_MS) {
    add(
      'response_time',
      `answered in ${Math.round(answer.elapsedMs)} ms, close to the 10 s limit`,
      'warning',
    );
  }
  if (answer.status === undefined) {
    return report(violations, { message_format: 'not_judged', status_code: 'not_judged' });
  }
  if (answer.status !== 200 && answer.status !== 400) {
    add('status_code', `answered ${answer.status}; only 200 and 400 are allowed`);
  }

  const { message, fields } = readMessage(answer.body ?? '');
  if (typeof message !== 'string') {
    add('message_format', message.problem);
  } else if (!/^application\/(?:[\w.+-]*\+)?json\b/i.test(answer.contentType ?? '')) {
    add(
      'message_format',
      `content-type is ${answer.contentType ? `"${answer.contentType}"` : 'missing'}; send application/json`,
      'warning',
    );
  }
  return {
    ...report(violations, {}),
    ...(typeof message === 'string' ? { message } : {}),
    ...(fields !== undefined ? { fields } : {}),
  };
}

/** The report of an answer that came (or timed out), each check's verdict from its violations. */
function report(
  violations: Violation[],
  unjudged: Partial<Record<PlatformCheck, 'not_judged'>>,
): CheckReport {
  const verdict = (check: PlatformCheck): CheckVerdict => {
    const own = violations.filter((v) => v.check === check);
    if (own.some((v) => v.severity === 'error')) return 'fail';
    if (own.length > 0) return 'warn';
    return unjudged[check] ?? 'pass';
  };
  return {
    passed: !violations.some((v) => v.severity === 'error'),
    judged: true,
    checks: {
      response_time: verdict('response_time'),
      message_format: verdict('message_format'),
      status_code: verdict('status_code'),
    },
    violations,
  };
}

interface ReadBody {
  message: string | { problem: string };
  fields?: Record<string, unknown>;
}

function readMessage(body: string): ReadBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    const start = body.trimStart().slice(0, 1);
    return {
      message: {
        problem:
          start === '<'
            ? 'the body is HTML, not JSON {"message": "..."}'
            : 'the body is not JSON {"message": "..."}',
      },
    };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return {
      message: { problem: `the body is ${kindOf(parsed)}, not an object {"message": "..."}` },
    };
  }
  const fields = parsed as Record<string, unknown>;
  const problem = (text: string): ReadBody => ({ message: { problem: text }, fields });
  const message = fields.message;
  if (message === undefined) return problem('the body has no "message" field');
  if (typeof message !== 'string') {
    const shown = JSON.stringify(message);
    const sample = shown.length > 80 ? `${shown.slice(0, 80)}…` : shown;
    return problem(`"message" is ${kindOf(message)}, not a string: ${sample}`);
  }
  if (message.trim() === '') return problem('"message" is empty');
  return { message, fields };
}

/** What a JSON value is, in the words a developer reads: "an array", "a number", "null". */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return `a boolean (${value})`;
  return `a ${typeof value}`;
}
