import type { CheckStatus, RunVerdict } from '@questkit/conformance';

// The connect handlers and webhook receivers of the corpus, as communities write them, their
// known faults and their true verdicts. Each is a test of both judges: `questkit check
// --connect-url` or `questkit check-webhook` (the built binary), and the mock platform running the
// same flow for a member (the connect flow in a browser's steps; a member joining, so a
// delivery). Both must agree.

/** Where a connect handler runs. */
export type ConnectTarget =
  | 'express-connect-test-login'
  | 'express-connect-login-page'
  | 'express-connect-login-gate'
  | 'next-connect-json'
  | 'next-connect-extra-param'
  | 'next-connect-host-rewrite';

/** One connect handler and its true verdict. */
export interface ConnectEntry {
  name: string;
  target: ConnectTarget;
  faults: string;
  /** Exit code of `questkit check --connect-url`. */
  exit: 0 | 1;
  verdict: RunVerdict;
  /** The verdicts of the signed redirect and of the callback. */
  signedRedirect: CheckStatus;
  callback: CheckStatus;
  /** The sentence a person acts on (a finding or the callback's reason); none when all passed. */
  sentence?: RegExp;
  /** The mock's flow: the status the member's browser got from the handler, and whether the member was linked. */
  mock: { handlerStatus: number; linked: boolean };
}

export const CONNECT_CORPUS: readonly ConnectEntry[] = [
  {
    name: 'Express, signature checked on the configured origin, a test login',
    target: 'express-connect-test-login',
    faults: 'none',
    exit: 0,
    verdict: 'pass',
    signedRedirect: 'pass',
    callback: 'pass',
    mock: { handlerStatus: 302, linked: true },
  },
  {
    name: 'Express, correct, a login page first',
    target: 'express-connect-login-page',
    faults: 'none; the callback comes after a login the judge cannot do',
    exit: 0,
    verdict: 'pass',
    signedRedirect: 'pass',
    callback: 'skip',
    sentence:
      /^not judged past the login: the handler answered 200 with a page .* check a test mode of the handler in which the member is already logged in/,
    mock: { handlerStatus: 200, linked: false },
  },
  {
    name: "Express, the route behind the app's login gate",
    target: 'express-connect-login-gate',
    faults: 'an auth middleware answers 401 "Not authorized, no token" before any signature check',
    exit: 1,
    verdict: 'fail',
    signedRedirect: 'fail',
    callback: 'skip',
    sentence:
      /^refused a correctly signed redirect with 401: "Not authorized, no token": a login or authorization gate answers before any signature check\./,
    mock: { handlerStatus: 401, linked: false },
  },
  {
    name: 'Next.js App Router, answers JSON instead of redirecting',
    target: 'next-connect-json',
    faults: 'checks the signature, then 200 {"success":true}: never redirects to the callback',
    exit: 1,
    verdict: 'fail',
    signedRedirect: 'pass',
    callback: 'fail',
    sentence:
      /^answered 200 application\/json: "\{\\"success\\":true\}" to a correctly signed redirect, and did not redirect to the callback: .*members can never link their account/,
    mock: { handlerStatus: 200, linked: false },
  },
  {
    name: 'Next.js App Router, wants a state parameter',
    target: 'next-connect-extra-param',
    faults: '400 {"error":"Missing required parameters"} without a state parameter',
    exit: 1,
    verdict: 'fail',
    signedRedirect: 'fail',
    callback: 'skip',
    sentence:
      /^rejected a correctly signed redirect with 400: "Missing required parameters"\. The platform sends exactly three query parameters: svcUserId .*, callback .* and signature .*; require no other\.$/,
    mock: { handlerStatus: 400, linked: false },
  },
  {
    name: 'Next.js App Router, sign-checks request.url',
    target: 'next-connect-host-rewrite',
    faults: 'reached at 127.0.0.1, request.url says localhost: the HMAC never matches',
    exit: 1,
    verdict: 'fail',
    signedRedirect: 'fail',
    callback: 'skip',
    sentence:
      /^rejected a correctly signed redirect with 400: "Invalid signature"\. If its signature check fails, the usual cause is a framework or proxy that reports another host or scheme than the one signed \(http:\/\/127\.0\.0\.1:\d+\): Next\.js reports localhost/,
    mock: { handlerStatus: 400, linked: false },
  },
];

/** Where a webhook receiver runs. */
export type WebhookTarget =
  | 'next-webhook-hmac'
  | 'express-webhook-top-level'
  | 'serverless-webhook'
  | 'express-webhook-user-agent'
  | 'fastify-webhook-quest-succeeded'
  | 'webhook-token-in-url';

/** One webhook receiver and its true verdict. */
export interface WebhookEntry {
  name: string;
  target: WebhookTarget;
  faults: string;
  /** Exit code of `questkit check-webhook`. */
  exit: 0 | 1;
  verdict: RunVerdict;
  /** The status every good delivery gets. */
  deliveryStatus: number;
  /** The sentence a person acts on (the headline, or a finding); none when all passed. */
  sentence?: RegExp;
  /** The mock's first try of a JOINED_COMMUNITY delivery, and whether it explains the format. */
  mock: { status: 'success' | 'failed'; explained: boolean };
  /** It acts on QUEST_SUCCEEDED only: check-webhook's delivery of it must make it act. */
  acts?: true;
}

export const WEBHOOK_CORPUS: readonly WebhookEntry[] = [
  {
    name: 'Next.js App Router, wants an HMAC signature header',
    target: 'next-webhook-hmac',
    faults: 'expects x-webhook-signature (HMAC of the body): 401 to every delivery',
    exit: 1,
    verdict: 'fail',
    deliveryStatus: 401,
    sentence:
      /^Every delivery got 401: the receiver refuses deliveries made as the platform makes them.* Deliveries carry no signature header/,
    mock: { status: 'failed', explained: true },
  },
  {
    name: 'Express, reads the event at the top level',
    target: 'express-webhook-top-level',
    faults: 'reads body.event and body.userId: 400 to every delivery (they sit under data)',
    exit: 1,
    verdict: 'fail',
    deliveryStatus: 400,
    sentence:
      /^Every delivery got 400: .* The body is the event \{id, type, data, time\} plus "secret" .*the event's own fields sit under "data", nested: data\.user\.id, data\.quest\.id, data\.community\.subdomain/,
    mock: { status: 'failed', explained: true },
  },
  {
    name: 'Serverless function, secret in the body, event under data',
    target: 'serverless-webhook',
    faults: 'none',
    exit: 0,
    verdict: 'pass',
    deliveryStatus: 200,
    mock: { status: 'success', explained: false },
  },
  {
    name: "Express, refuses any User-Agent but the platform's, reads nested data unguarded",
    target: 'express-webhook-user-agent',
    faults:
      "none with the platform's deliveries; 403 to any other User-Agent, 500 to a flat data (data.userId)",
    exit: 0,
    verdict: 'pass',
    deliveryStatus: 200,
    mock: { status: 'success', explained: false },
  },
  {
    name: 'Fastify, acts on QUEST_SUCCEEDED only: credits data.quest to the member of data.user',
    target: 'fastify-webhook-quest-succeeded',
    faults: 'none; every other type gets 200 and nothing happens',
    exit: 0,
    verdict: 'pass',
    deliveryStatus: 200,
    mock: { status: 'success', explained: false },
    acts: true,
  },
  {
    name: "Authenticates by a token in its URL, ignores the body's secret",
    target: 'webhook-token-in-url',
    faults:
      'the URL is its only credential: a delivery with a wrong secret gets 200, so anyone with the URL can send events',
    exit: 1,
    verdict: 'fail',
    deliveryStatus: 200,
    sentence:
      /^accepted a delivery with a wrong secret \(200\): anyone who finds the URL can send you events/,
    mock: { status: 'success', explained: false },
  },
];
