import { createConnectRedirect, verifySignedUrl } from '@questkit/core';
import { type ObservedAnswer, recordReceivedAnswer, recordSentRequest } from '@questkit/core/api';
import { toCurl } from './curl.js';
import { endpointText, isHtmlPage } from './endpoint-text.js';
import type { OutgoingRequest } from './send.js';
import type { CheckResult, ConnectOptions, Finding } from './types.js';

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

/** The connect redirects of a run, as data: built by the plan, sent, then judged. */
export interface ConnectPlan {
  /** The selected checks, in order. */
  ids: ConnectCheckId[];
  /** The redirects sent, each a GET; the signed one always (the callback check reads its answer). */
  requests: Array<{ id: ConnectRequestId; request: OutgoingRequest }>;
  /** The signed redirect's URL. */
  signed: string;
  /** The callback the redirect carries, with a `session` parameter it must keep. */
  callback: string;
  session: string;
  secret: string;
}

/** The checks that send a request of their own; `connect.callback` reads the signed one's answer. */
export type ConnectRequestId = Exclude<ConnectCheckId, 'connect.callback'>;

const SIGNATURE = /[?&]signature=([^&#]*)/g;

/**
 * The connect redirects for the task's redirect URL: one signed by core's
 * `createConnectRedirect` (the code the platform side of questkit uses), one whose svcUserId was
 * changed after signing, one without a signature.
 */
export async function planConnect(
  options: ConnectOptions,
  ids: readonly ConnectCheckId[],
): Promise<ConnectPlan> {
  const session = crypto.randomUUID();
  const callback = withParam(options.callback ?? DEFAULT_CONNECT_CALLBACK, 'session', session);
  const svcUserId = options.svcUserId ?? crypto.randomUUID();
  const signed = await createConnectRedirect({
    redirectUrl: options.url,
    svcUserId,
    callback,
    secret: options.secret,
  });
  const tampered = new URL(signed);
  tampered.searchParams.set('svcUserId', `${svcUserId}-tampered`);
  const unsigned = new URL(signed);
  unsigned.searchParams.delete('signature');
  const requests = [
    { id: 'connect.signed-redirect' as const, request: get(signed) },
    ...(ids.includes('connect.tampered-redirect')
      ? [{ id: 'connect.tampered-redirect' as const, request: get(tampered.href) }]
      : []),
    ...(ids.includes('connect.unsigned-redirect')
      ? [{ id: 'connect.unsigned-redirect' as const, request: get(unsigned.href) }]
      : []),
  ];
  return { ids: [...ids], requests, signed, callback, session, secret: options.secret };
}

/** A connect check's verdict: its findings, or why it was not judged. */
export type ConnectVerdict = { findings: Finding[] } | { skip: string };

/**
 * Judges one connect check from the answers to the redirects: its own, and the signed one's (the
 * callback check reads only that). The callback is checked with core's `verifySignedUrl`.
 */
export async function connectVerdict(
  id: ConnectCheckId,
  answers: Partial<Record<ConnectRequestId, ObservedAnswer>>,
  plan: ConnectPlan,
  timeoutMs: number,
): Promise<ConnectVerdict> {
  const signedAnswer = answers['connect.signed-redirect']!;
  if (id === 'connect.signed-redirect') {
    return { findings: signedFindings(signedAnswer, timeoutMs, plan.signed) };
  }
  if (id !== 'connect.callback') {
    return { findings: rejectionFindings(answers[id]!, id, timeoutMs, plan) };
  }
  const back = straightBack(signedAnswer, plan.signed, plan.callback);
  if (back !== null) return { findings: await callbackFindings(back, plan.secret, plan.session) };
  const flow = notStraightBack(signedAnswer, plan.signed);
  return flow.kind === 'fail' ? { findings: flow.findings } : { skip: flow.reason };
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
  return `If its signature check fails, the usual cause is a framework or proxy that reports another host or scheme than the one signed (${origin}): Next.js reports localhost for a request to 127.0.0.1, a proxy in front reports http for https. Set the public URL to ${origin} (PUBLIC_URL in a questkit project, the connect endpoint's publicUrl) so that the signature is checked against it, not against the URL the request reports.`;
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
  if ((status === 401 || status === 403) && (said === undefined || !ABOUT_SIGNATURE.test(said))) {
    return [
      {
        rule: 'connect',
        severity: 'error',
        message: `refused a correctly signed redirect with ${status}${quoted}: a login or authorization gate answers before any signature check. The platform sends the member's browser here before your app knows them: let this route through the gate, check the signature, then send the member to your login (a redirect or a page) and come back to finish.`,
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
  plan: ConnectPlan,
): Finding[] {
  const { status } = answer;
  if (status === undefined) return noAnswer(answer, timeoutMs);
  if (status === 400) return [];
  const what =
    id === 'connect.tampered-redirect' ? 'a tampered redirect' : 'a redirect without a signature';
  // Linking was seen only when the browser is sent straight back to the callback.
  if (straightBack(answer, plan.signed, plan.callback) !== null) {
    return [
      {
        rule: 'connect',
        severity: 'error',
        message: `accepted ${what} and sent the browser back to the callback (${status}): anyone could link any platform account; verify the signature first`,
      },
    ];
  }
  if (status === 200 || isRedirect(status)) {
    return [
      {
        rule: 'connect',
        severity: 'warning',
        message: `did not refuse ${what} (${status}): the handler goes on (to a login step, a page) without checking the signature first. No link was seen, but refuse it with 400 before anything else, so a forged redirect never reaches your login.`,
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

async function callbackFindings(back: URL, secret: string, session: string): Promise<Finding[]> {
  const findings: Finding[] = [];
  const fail = (message: string) => findings.push({ rule: 'connect', severity: 'error', message });
  const verified = await verifySignedUrl(back.href, secret);
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

/** The signatures a URL carries, as written in it: the secrets of a connect redirect. */
function signaturesIn(url: string | null | undefined): string[] {
  return url ? [...url.matchAll(SIGNATURE)].map((match) => match[1] ?? '') : [];
}

/** A connect redirect and its answer as the report shows them, signatures redacted. */
export function describeConnect(
  request: OutgoingRequest,
  answer: ObservedAnswer,
  run: { showSecrets: boolean; timeoutMs: number },
): Pick<CheckResult, 'sent' | 'received' | 'curl'> {
  const secrets = run.showSecrets
    ? []
    : [...signaturesIn(request.url), ...signaturesIn(answer.location)];
  const sent = recordSentRequest(request, { secrets });
  return {
    sent,
    received: recordReceivedAnswer(answer, { secrets, maxBodyChars: 500 }),
    curl: toCurl({ ...request, url: sent.url }, { timeoutMs: run.timeoutMs }),
  };
}
