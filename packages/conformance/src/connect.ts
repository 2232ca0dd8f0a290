import { createConnectRedirect, verifySignedUrl } from '@questkit/core';
import type { ObservedAnswer } from '@questkit/core/api';
import { toCurl } from './curl.js';
import { endpointText, isHtmlPage } from './endpoint-text.js';
import { statusOf } from './judge.js';
import { type OutgoingRequest, send } from './send.js';
import type { CheckResult, ConnectOptions, Finding, ReceivedAnswer, SentRequest } from './types.js';

/** The connect checks, in the order they run. */
export const CONNECT_CHECKS = [
  {
    id: 'connect.signed-redirect',
    title: 'A correctly signed connect redirect is accepted (a redirect or a page, not 400)',
  },
  {
    id: 'connect.tampered-redirect',
    title: 'A connect redirect whose svcUserId was changed after signing is rejected with 400',
  },
  {
    id: 'connect.unsigned-redirect',
    title: 'A connect redirect without a signature is rejected with 400',
  },
  {
    id: 'connect.callback',
    title: 'A redirect straight back carries a valid identifier and signature',
  },
] as const;

/** The id of one connect check. */
export type ConnectCheckId = (typeof CONNECT_CHECKS)[number]['id'];

/** The callback the redirect carries when the run names none: a host that never resolves. */
export const DEFAULT_CONNECT_CALLBACK = 'https://platform.invalid/connect/callback';

/** What the connect checks need from the run. */
export interface ConnectRunContext {
  options: ConnectOptions;
  timeoutMs: number;
  showSecrets: boolean;
  stop?: AbortSignal;
  /** Which checks to run. */
  selected: (id: ConnectCheckId) => boolean;
  /** Called with each result as it is ready. */
  report: (result: CheckResult) => void;
}

const SIGNATURE = /([?&]signature=)[^&#]*/g;
const REDACTED = 'REDACTED';

/**
 * Runs the connect checks against the task's redirect URL. The signed redirect comes from core's
 * `createConnectRedirect` and the callback is checked with core's `verifySignedUrl`: the same
 * code the platform side of questkit uses.
 */
export async function runConnectChecks(context: ConnectRunContext): Promise<void> {
  const { options } = context;
  const session = crypto.randomUUID();
  const callback = withParam(options.callback ?? DEFAULT_CONNECT_CALLBACK, 'session', session);
  const svcUserId = options.svcUserId ?? crypto.randomUUID();
  const signed = createConnectRedirect({
    redirectUrl: options.url,
    svcUserId,
    callback,
    secret: options.secret,
  });

  // The callback check reads the answer to the signed redirect, so that one always runs.
  const started = performance.now();
  const signedAnswer = await send(get(signed), {
    timeoutMs: context.timeoutMs,
    signal: context.stop,
  });
  if (context.selected('connect.signed-redirect')) {
    context.report(
      result(
        context,
        'connect.signed-redirect',
        signed,
        signedAnswer,
        started,
        signedFindings(signedAnswer, context.timeoutMs, signed),
      ),
    );
  }

  for (const id of ['connect.tampered-redirect', 'connect.unsigned-redirect'] as const) {
    if (!context.selected(id)) continue;
    const url = new URL(signed);
    if (id === 'connect.tampered-redirect')
      url.searchParams.set('svcUserId', `${svcUserId}-tampered`);
    else url.searchParams.delete('signature');
    const begun = performance.now();
    const answer = await send(get(url.href), {
      timeoutMs: context.timeoutMs,
      signal: context.stop,
    });
    context.report(
      result(
        context,
        id,
        url.href,
        answer,
        begun,
        rejectionFindings(answer, id, context.timeoutMs),
      ),
    );
  }

  if (context.selected('connect.callback')) {
    const begun = performance.now();
    const back = straightBack(signedAnswer, signed, callback);
    const base = result(context, 'connect.callback', signed, signedAnswer, begun, []);
    if (back === null) {
      const flow = notStraightBack(signedAnswer, signed);
      context.report(
        flow.kind === 'fail'
          ? { ...base, findings: flow.findings, status: statusOf(flow.findings) }
          : { ...base, status: 'skip', skipReason: flow.reason },
      );
    } else {
      const findings = callbackFindings(back, options.secret, session);
      context.report({ ...base, findings, status: statusOf(findings) });
    }
  }
}

function get(url: string): OutgoingRequest {
  return { method: 'GET', url, headers: {} };
}

function withParam(url: string, name: string, value: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set(name, value);
  return parsed.href;
}

function isRedirect(status: number | undefined): boolean {
  return status !== undefined && status >= 300 && status < 400;
}

function noAnswer(answer: ObservedAnswer, timeoutMs: number): Finding[] {
  if (answer.timedOut) {
    return [{ rule: 'connect', severity: 'error', message: `no answer within ${timeoutMs} ms` }];
  }
  return [
    {
      rule: 'connect',
      severity: 'error',
      message: `no answer: ${answer.error ?? 'the request failed'}`,
    },
  ];
}

const PARAMETERS =
  "The platform sends exactly three query parameters: svcUserId (the member's platform id), callback (where to send the member back) and signature (HMAC-SHA256 of the full URL without its signature parameter, lower-case hex, keyed with the community secret); require no other.";

function hostCause(signed: string): string {
  const { origin } = new URL(signed);
  return `If its signature check fails, the usual cause is a framework or proxy that reports another host or scheme than the one signed (${origin}): Next.js reports localhost for a request to 127.0.0.1, a proxy in front reports http for https. Verify the signature against your public URL, set in your configuration, not the URL the request reports.`;
}

/** Words that say the endpoint's own signature check failed, or that a parameter was missing. */
const ABOUT_SIGNATURE = /sign|hmac|hash|tamper|forged|verif|authentic/i;
const ABOUT_PARAMETERS = /param|missing|required|expected|must be|is not allowed|unknown/i;

function signedFindings(answer: ObservedAnswer, timeoutMs: number, signed: string): Finding[] {
  const { status } = answer;
  if (status === undefined) return noAnswer(answer, timeoutMs);
  if ((status >= 200 && status < 300) || isRedirect(status)) return [];
  const said = endpointText(answer.body);
  const quoted = said === undefined ? '' : `: "${said}"`;
  if (status === 404 || status === 405) {
    return [
      {
        rule: 'connect',
        severity: 'error',
        message: `answered ${status}${quoted} to a correctly signed redirect: nothing takes a GET at ${new URL(signed).pathname}. The platform sends the member's browser there with a GET; is the redirect URL right?`,
      },
    ];
  }
  // The endpoint's own words tell which of its checks refused: a signature, or a parameter.
  const signature = said === undefined || ABOUT_SIGNATURE.test(said);
  const parameters = said !== undefined && ABOUT_PARAMETERS.test(said);
  const advice =
    parameters && !signature
      ? [PARAMETERS]
      : parameters
        ? [PARAMETERS, hostCause(signed)]
        : [hostCause(signed), PARAMETERS];
  const what = status >= 500 ? 'failed on' : 'rejected';
  return [
    {
      rule: 'connect',
      severity: 'error',
      message: `${what} a correctly signed redirect with ${status}${quoted}. ${advice.join(' ')}`,
    },
  ];
}

type FlowOutcome = { kind: 'fail'; findings: Finding[] } | { kind: 'skip'; reason: string };

const LOGIN_JUDGE =
  'To judge the callback, check a test mode of the handler in which the member is already logged in, so that it redirects straight back, or finish the flow in a browser from the mock platform (questkit mock, then start the connect flow from its dashboard).';

/** The signed redirect did not come straight back to the callback: a login step, or a dead end. */
function notStraightBack(answer: ObservedAnswer, signed: string): FlowOutcome {
  const { status } = answer;
  if (
    status === undefined ||
    status < 200 ||
    (status >= 300 && !isRedirect(status)) ||
    status >= 400
  ) {
    return {
      kind: 'skip',
      reason: 'the signed redirect was not accepted (see connect.signed-redirect)',
    };
  }
  if (isRedirect(status)) {
    const where = answer.location ? ` to ${redactedLocation(answer.location, signed)}` : '';
    return {
      kind: 'skip',
      reason: `not judged past the login: the handler redirected${where}, not to the callback (a login step, as expected before the member is known). ${LOGIN_JUDGE}`,
    };
  }
  if (isHtmlPage(answer.contentType, answer.body)) {
    return {
      kind: 'skip',
      reason: `not judged past the login: the handler answered ${status} with a page (a login step, as expected before the member is known). ${LOGIN_JUDGE}`,
    };
  }
  const said = endpointText(answer.body);
  const type = answer.contentType ? ` ${answer.contentType.split(';')[0]}` : '';
  const shown = said === undefined ? ' (no body)' : `: ${JSON.stringify(said)}`;
  return {
    kind: 'fail',
    findings: [
      {
        rule: 'connect',
        severity: 'error',
        message: `answered ${status}${type}${shown} to a correctly signed redirect, and did not redirect to the callback: the member's browser stops there, so members can never link their account. After checking the signature (and logging the member in), redirect (302) to the callback URL with identifier added, then signature over the result.`,
      },
    ],
  };
}

/** A location as the report shows it: its path when on the endpoint's origin, never its query. */
function redactedLocation(location: string, from: string): string {
  try {
    const target = new URL(location, from);
    const origin = target.origin === new URL(from).origin ? '' : target.origin;
    return `${origin}${target.pathname}`;
  } catch {
    return 'another address';
  }
}

function rejectionFindings(
  answer: ObservedAnswer,
  id: ConnectCheckId,
  timeoutMs: number,
): Finding[] {
  const { status } = answer;
  if (status === undefined) return noAnswer(answer, timeoutMs);
  if (status === 400) return [];
  const what =
    id === 'connect.tampered-redirect' ? 'a tampered redirect' : 'a redirect without a signature';
  if (status === 200 || isRedirect(status)) {
    return [
      {
        rule: 'connect',
        severity: 'error',
        message: `accepted ${what} (${status}): anyone could link any platform account; verify the signature first`,
      },
    ];
  }
  if (status >= 400 && status < 500) {
    return [
      {
        rule: 'connect',
        severity: 'warning',
        message: `rejected ${what} with ${status}; the reference flow answers 400`,
      },
    ];
  }
  return [
    {
      rule: 'connect',
      severity: 'error',
      message: `answered ${status} to ${what}; reject it with 400`,
    },
  ];
}

/** The callback URL the endpoint redirected to, when it redirected straight back to ours. */
function straightBack(answer: ObservedAnswer, from: string, callback: string): URL | null {
  if (!isRedirect(answer.status) || !answer.location) return null;
  let target: URL;
  try {
    target = new URL(answer.location, from);
  } catch {
    return null;
  }
  const expected = new URL(callback);
  return target.origin === expected.origin && target.pathname === expected.pathname ? target : null;
}

function callbackFindings(back: URL, secret: string, session: string): Finding[] {
  const findings: Finding[] = [];
  const fail = (message: string) => findings.push({ rule: 'connect', severity: 'error', message });
  const verified = verifySignedUrl(back.href, secret);
  if (!verified.ok) {
    fail(
      `the callback's signature does not verify (${verified.reason}): sign the callback URL with identifier set, then append signature`,
    );
  }
  const identifiers = back.searchParams.getAll('identifier');
  if (identifiers.length !== 1 || identifiers[0] === '') {
    fail('the callback carries no identifier: set identifier to the member id in your app');
  }
  if (back.searchParams.get('session') !== session) {
    fail(
      'the callback lost the query parameters it was given: add identifier to the callback URL as is',
    );
  }
  return findings;
}

function redact(url: string, showSecrets: boolean): string {
  return showSecrets ? url : url.replace(SIGNATURE, `$1${REDACTED}`);
}

function result(
  context: ConnectRunContext,
  id: ConnectCheckId,
  url: string,
  answer: ObservedAnswer,
  started: number,
  findings: Finding[],
): CheckResult {
  const title = CONNECT_CHECKS.find((check) => check.id === id)!.title;
  const shown = redact(url, context.showSecrets);
  const sent: SentRequest = { method: 'GET', url: shown, headers: {}, bodyBytes: 0 };
  const received: ReceivedAnswer = {
    elapsedMs: Math.round(answer.elapsedMs),
    ...(answer.status !== undefined ? { status: answer.status } : {}),
    ...(answer.contentType !== undefined ? { contentType: answer.contentType } : {}),
    ...(answer.location ? { location: redact(answer.location, context.showSecrets) } : {}),
    ...(answer.body !== undefined ? { body: answer.body.slice(0, 500) } : {}),
    ...(answer.timedOut ? { timedOut: true } : {}),
    ...(answer.error !== undefined ? { error: answer.error } : {}),
  };
  return {
    id,
    title,
    group: 'connect',
    tier: 'members',
    status: statusOf(findings),
    findings,
    sent,
    received,
    curl: toCurl(get(shown), { timeoutMs: context.timeoutMs }),
    durationMs: Math.round(performance.now() - started),
  };
}
