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
  | 'closed-port';

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
  exit: 0 | 1;
  verdict: RunVerdict;
  platform: TierVerdict;
  hardening: TierVerdict | 'any';
  /** A sentence the person reading the report acts on (findings, headline or advice). */
  sentence: RegExp;
  /** The mock's endpoint check runs the same entry (not when the key decision differs). */
  mock: boolean;
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
];
