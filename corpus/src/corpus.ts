import type { RunVerdict, TierVerdict } from '@questkit/conformance';

// The corpus: each endpoint as community apps write it, its known faults, and its true verdict.
// Each entry is a test of `questkit check` (its exit code, tier verdicts and the sentence a person
// acts on) and of the mock platform's endpoint check (the same platform verdict, worded alike).

/** Where an entry's endpoint runs. */
export type Target =
  | 'node-http'
  | 'node-http-401'
  | 'node-http-connect-only'
  | 'express-json'
  | 'express-no-parser'
  | 'fastify'
  | 'hono'
  | 'next-app-router'
  | 'next-pages-router'
  | 'closed-port'
  | 'nestjs'
  | 'serverless'
  | 'express-get-only'
  | 'node-http-html'
  | 'node-http-says-no'
  | 'node-http-one-refusal'
  | 'crashes-without-wallet'
  | 'crashes-on-wrong-key';

/** Targets that really die (an unhandled rejection ends Node): a process of their own per run. */
export const CRASHING: Partial<Record<Target, 'without-wallet' | 'wrong-key'>> = {
  'crashes-without-wallet': 'without-wallet',
  'crashes-on-wrong-key': 'wrong-key',
};

/** One endpoint of the corpus and its true verdict. */
export interface CorpusEntry {
  name: string;
  target: Target;
  /** What is wrong with it, in a few words. */
  faults: string;
  /** The path to check instead of the endpoint's own (a typo). */
  path?: string;
  /** `questkit check` arguments besides the URL; `--api-key` is added unless `noKey`. */
  args?: string[];
  /** Run without `--api-key` (and without `--no-api-key`). */
  noKey?: boolean;
  /** Run with this key instead of the endpoint's (a task key the endpoint does not have). */
  key?: string;
  exit: 0 | 1;
  verdict: RunVerdict;
  platform: TierVerdict;
  /** The members tier's verdict, when the entry is about it. */
  members?: TierVerdict;
  hardening: TierVerdict | 'any';
  /** A sentence the person reading the report acts on (findings, headline or advice). */
  sentence: RegExp;
  /** The mock's endpoint check runs the same entry (not when the key decision differs). */
  mock: boolean;
  /**
   * The mock's pass or fail when it differs from the exit code's: the mock sends only the
   * platform's calls, so a request only hardening sends cannot stop the endpoint there.
   */
  mockPassed?: boolean;
  /** The server stops answering: which probe it stops at depends on what was in flight. */
  stops?: boolean;
}

export const CORPUS: readonly CorpusEntry[] = [
  {
    name: 'node:http, hand-written, correct',
    target: 'node-http',
    faults: 'none (accepts a claim without communityId)',
    exit: 0,
    verdict: 'pass',
    platform: 'pass',
    hardening: 'warn',
    sentence: /accepted a claim without communityId/,
    mock: true,
  },
  {
    name: 'node:http, 401 on a bad key',
    target: 'node-http-401',
    faults: 'answers a wrong or missing key with 401 {error}',
    exit: 1,
    verdict: 'fail',
    platform: 'fail',
    hardening: 'any',
    sentence: /answered 401; only 200 and 400 are allowed/,
    mock: true,
  },
  {
    name: 'node:http, reads accounts["svc-connect"] first, every shape probed',
    target: 'node-http-connect-only',
    faults: 'a 500 on any claim without accounts["svc-connect"]',
    exit: 1,
    verdict: 'fail',
    platform: 'fail',
    hardening: 'any',
    sentence: /claims for a task configured with .*svc-connect.*--identifications/,
    mock: true,
  },
  {
    name: 'node:http, reads accounts["svc-connect"] first, a connect-only task',
    target: 'node-http-connect-only',
    faults: 'the same, checked with --identifications svc-connect',
    args: ['--identifications', 'svc-connect'],
    exit: 0,
    verdict: 'pass',
    platform: 'pass',
    hardening: 'warn',
    sentence: /answered 500; only 200 and 400 are allowed/,
    mock: true,
  },
  {
    name: 'node:http, a typo in the path',
    target: 'node-http',
    faults: 'checked at /verfy: nothing answers there',
    path: '/verfy',
    exit: 1,
    verdict: 'fail',
    platform: 'fail',
    hardening: 'warn',
    sentence:
      /^Every claim got 404: nothing answers a POST at \/verfy\. Is the path right\? The platform POSTs its claims as JSON\.$/,
    mock: true,
  },
  {
    name: 'node:http, checked without a key',
    target: 'node-http',
    faults: 'none; the run was given no --api-key',
    noKey: true,
    exit: 1,
    verdict: 'not_judged',
    platform: 'pass',
    hardening: 'any',
    sentence: /No API key was given, so the run cannot tell what the platform will meet/,
    mock: false,
  },
  {
    name: 'nothing listening',
    target: 'closed-port',
    faults: 'connection refused',
    exit: 1,
    verdict: 'not_judged',
    platform: 'not_judged',
    hardening: 'not_run',
    sentence: /^No answer from .*: connection refused \(ECONNREFUSED\)\. Is the endpoint running/,
    mock: true,
  },
  {
    name: 'Express 5 with express.json()',
    target: 'express-json',
    faults: "the parser's HTML 400 on bad JSON, 413 over 100 kB, a crash on text/plain, 404 on GET",
    exit: 0,
    verdict: 'pass',
    platform: 'pass',
    hardening: 'warn',
    sentence: /the body is HTML, not JSON/,
    mock: true,
  },
  {
    name: 'Express 5 without a body parser',
    target: 'express-no-parser',
    faults: 'req.body is undefined: a 500 HTML page on every claim with the key',
    exit: 1,
    verdict: 'fail',
    platform: 'fail',
    hardening: 'any',
    sentence: /answered 500; only 200 and 400 are allowed/,
    mock: true,
  },
  {
    name: 'Fastify 5 defaults',
    target: 'fastify',
    faults: 'its own 413 (over 1 MiB) and 404 (GET) JSON answers',
    exit: 0,
    verdict: 'pass',
    platform: 'pass',
    hardening: 'warn',
    sentence: /answered 413; only 200 and 400 are allowed/,
    mock: true,
  },
  {
    name: 'Hono 4 on @hono/node-server',
    target: 'hono',
    faults: 'c.req.json() throws on bad JSON: a 500 text answer',
    exit: 0,
    verdict: 'pass',
    platform: 'pass',
    hardening: 'warn',
    sentence: /answered 500; only 200 and 400 are allowed/,
    mock: true,
  },
  {
    name: 'Next.js App Router, POST only',
    target: 'next-app-router',
    faults: '405 with an empty body to a GET',
    exit: 0,
    verdict: 'pass',
    platform: 'pass',
    hardening: 'warn',
    sentence: /answered 405; only 200 and 400 are allowed/,
    mock: true,
  },
  {
    name: 'Next.js Pages Router behind its body parser',
    target: 'next-pages-router',
    faults: "the parser's text 400 on bad JSON and 413 over 1 MB",
    exit: 0,
    verdict: 'pass',
    platform: 'pass',
    hardening: 'warn',
    sentence: /answered 413; only 200 and 400 are allowed/,
    mock: true,
  },
  {
    name: 'NestJS controller with a guard and ValidationPipe',
    target: 'nestjs',
    faults:
      'the guard answers a wrong or missing key 403 {message, error, statusCode}; ValidationPipe answers {"message": [...]}, an array',
    exit: 1,
    verdict: 'fail',
    platform: 'fail',
    hardening: 'any',
    sentence:
      /^answered 403; only 200 and 400 are allowed\. The platform sends a claim with another key \(or none\) whenever the task's key and your endpoint's differ/,
    mock: true,
  },
  {
    name: 'serverless (req, res) handler with a pre-parsed body',
    target: 'serverless',
    faults: "the runtime's text 400 on a body that is not JSON; a bare 405 to a GET",
    exit: 0,
    verdict: 'pass',
    platform: 'pass',
    hardening: 'warn',
    sentence: /answered 405; only 200 and 400 are allowed/,
    mock: true,
  },
  {
    name: 'Express 5 route that only answers GET',
    target: 'express-get-only',
    faults: "app.get, not app.post: Express's 404 page to every POST",
    exit: 1,
    verdict: 'fail',
    platform: 'fail',
    hardening: 'any',
    sentence:
      /^A GET to \/verify got 400 where every POST got 404: the route answers GET only\. The platform POSTs its claims as JSON/,
    mock: true,
  },
  {
    name: 'JSON sent as text/html',
    target: 'node-http-html',
    faults: 'every answer is JSON labelled content-type text/html',
    exit: 0,
    verdict: 'pass',
    platform: 'warn',
    hardening: 'any',
    sentence: /^content-type is "text\/html"; send application\/json$/,
    mock: true,
  },
  {
    name: 'a 200 that says no',
    target: 'node-http-says-no',
    faults: 'refuses a member with 200 {"verified": false, "message": ...}',
    exit: 0,
    verdict: 'pass',
    platform: 'pass',
    members: 'warn',
    hardening: 'any',
    sentence:
      /^a well-formed claim got 200 with "verified": false in its JSON: the platform reads only the status, so it credits the member/,
    mock: true,
  },
  {
    name: 'correct, but the probe member does not qualify and every refusal reads the same',
    target: 'node-http-one-refusal',
    faults: 'none; the task key, a wrong key and no key all get 400 "Not yet complete."',
    exit: 0,
    verdict: 'pass',
    platform: 'pass',
    hardening: 'any',
    sentence:
      /^the task key, a wrong key and no key all got the same answer, 400 "Not yet complete\.": identical answers cannot tell whether the endpoint checks the key\..* --accounts .* --expect-pass/,
    mock: true,
  },
  {
    name: 'node:http, checked with a key it does not have',
    target: 'node-http',
    faults: 'the task key differs from the endpoint\'s: every claim gets 400 "Invalid API key."',
    key: 'a-task-key-the-endpoint-does-not-have',
    exit: 1,
    verdict: 'fail',
    platform: 'pass',
    members: 'fail',
    hardening: 'any',
    sentence:
      /^your endpoint refuses the key you gave: the task key, a wrong key and no key all got 400 "Invalid API key\.", which reads as a refused key\./,
    mock: true,
  },
  {
    name: 'Express, async work that throws on a claim without accounts.wallet, every shape probed',
    target: 'crashes-without-wallet',
    faults: 'an unhandled rejection on a claim without accounts.wallet: Node exits',
    exit: 1,
    verdict: 'fail',
    platform: 'not_judged',
    members: 'fail',
    hardening: 'any',
    sentence:
      /^The server stopped answering (at|after) .*It probably crashed, and anyone can send the request that crashed it/,
    mock: true,
    stops: true,
  },
  {
    name: 'Express, async work that throws on a claim without accounts.wallet, a wallet task',
    target: 'crashes-without-wallet',
    faults: 'the same, checked with --identifications wallet: a hardening probe stops it',
    args: ['--identifications', 'wallet'],
    exit: 1,
    verdict: 'fail',
    platform: 'pass',
    members: 'fail',
    hardening: 'not_judged',
    sentence:
      /^The server stopped answering (at|after) .*It probably crashed, and anyone can send the request that crashed it/,
    mock: true,
    mockPassed: true,
    stops: true,
  },
  {
    name: 'Express, a key check whose rejection nobody catches',
    target: 'crashes-on-wrong-key',
    faults: 'an unhandled rejection on the first wrong or missing key: Node exits',
    exit: 1,
    verdict: 'fail',
    platform: 'not_judged',
    members: 'fail',
    hardening: 'any',
    sentence:
      /^The server stopped answering (at|after) .*It probably crashed, and anyone can send the request that crashed it/,
    mock: true,
    stops: true,
  },
];
