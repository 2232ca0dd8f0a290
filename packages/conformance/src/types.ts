import type { Accounts, IdentificationMethod } from '@questkit/core';
import type { PlatformCheck, ReceivedAnswer, SentRequest } from '@questkit/core/api';
import type { StoppedAnswering } from './stopped-answering.js';

export type { StoppedAnswering } from './stopped-answering.js';

/**
 * The verdict on one check. `warn` passes but is worth fixing; `skip` was not run; `not_judged`
 * ran but got no answer to judge (or lacked what it needs to judge), so it never passes.
 */
export const CHECK_STATUSES = ['pass', 'warn', 'fail', 'skip', 'not_judged'] as const;
/** The verdict on one check. */
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/**
 * What a check is about, and whether it decides the exit code:
 * - `platform`: the platform's three automatic checks, on the calls the platform makes for the
 *   task (its claim shapes, the task's key, a drifted key);
 * - `members`: what members will meet (a refused or unchecked key, a throwing handler, the
 *   deadline, an unrouted quest, claims at load, the connect flow);
 * - `hardening`: requests the platform never sends (bad bodies, other methods and content
 *   types, unknown fields). Their failures are warnings unless the run is `strict`.
 */
export const TIERS = ['platform', 'members', 'hardening'] as const;
/** The tier of a check. */
export type Tier = (typeof TIERS)[number];

/** A tier's verdict: its worst check, or `not_run` when it had none. */
export type TierVerdict = 'pass' | 'warn' | 'fail' | 'not_judged' | 'not_run';

/** The verdict of a run: `not_judged` when something it needs to judge never came. */
export type RunVerdict = 'pass' | 'fail' | 'not_judged';
/**
 * What a finding is about: one of the platform's three checks, or one of the runner's own
 * expectations (`expected_status`: the answer is not the one this probe calls for; `auth`: the
 * endpoint accepts claims without the right key; `tolerance`: unknown fields change the answer;
 * `latency`: the latency series is too slow; `connect`: the connect redirect flow; `webhook`: a
 * webhook delivery's answer).
 */
export type FindingRule =
  | PlatformCheck
  | 'expected_status'
  | 'auth'
  | 'tolerance'
  | 'latency'
  | 'connect'
  | 'webhook'
  | 'member'
  | 'no_answer';

/** One reason a check failed, warned or was not judged. */
export interface Finding {
  rule: FindingRule;
  /**
   * `error` fails the check; `warning` makes it `warn`. A `no_answer` error makes it
   * `not_judged` instead: no answer came to judge.
   */
  severity: 'error' | 'warning';
  /** What is wrong, in a sentence a developer can act on. */
  message: string;
  /**
   * A stable id for programs, on findings whose meaning they act on: `key-unchecked` (a wrong or
   * missing key is answered as the task key, with 200), `key-accepted` (a wrong or missing key
   * is claimed), `key-refused` (the task key is answered as a wrong one).
   */
  code?: 'key-unchecked' | 'key-accepted' | 'key-refused';
}

// What a check sent and got back: core's record of a call, shared with the mock platform.
export type { ReceivedAnswer, SentRequest } from '@questkit/core/api';

/** Latency of a series of claims, in ms. */
export interface LatencyStats {
  samples: number;
  p50: number;
  p95: number;
  max: number;
}

/** The result of one check. */
export interface CheckResult {
  id: string;
  title: string;
  group: string;
  tier: Tier;
  status: CheckStatus;
  /** Why it failed or warned (empty on `pass`). */
  findings: Finding[];
  /** Why the check was skipped or not judged. */
  skipReason?: string;
  /** The (first failing, else first) request of the check. */
  sent?: SentRequest;
  received?: ReceivedAnswer;
  /** A copy-paste reproduction of `sent`. */
  curl?: string;
  /** How many answers of each status a repeated check got (`"timeout"`, `"error"` for none). */
  statuses?: Record<string, number>;
  latency?: LatencyStats;
  durationMs: number;
}

/** The platform's verdict per automatic check, rolled up over every probe. */
export type PlatformVerdict = Record<PlatformCheck, 'pass' | 'warn' | 'fail' | 'not_judged'>;

/** How many checks of a run ended each way (`check` and `check-webhook` alike). */
export interface StatusCounts {
  total: number;
  passed: number;
  warned: number;
  failed: number;
  skipped: number;
  notJudged: number;
}

/** Counts and the overall verdict of a run. */
export interface ReportSummary extends StatusCounts {
  /**
   * `fail` when a platform or members check failed (hardening too in a strict run);
   * `not_judged` when none failed but one could not be judged, or no key decision was given
   * (`apiKey` or `noApiKey`); else `pass`.
   */
  verdict: RunVerdict;
  /** true when the verdict is `pass`: the exit code of `questkit check` is 0. */
  ok: boolean;
  /** Each tier's verdict. */
  tiers: Record<Tier, TierVerdict>;
  /** The platform's verdict per automatic check, over the platform tier's calls only. */
  platform: PlatformVerdict;
  /**
   * One sentence when every probe got the same answer outside the contract (a 404 everywhere,
   * a refused connection): the likely cause, before the details.
   */
  headline?: string;
  /** What to do next, when the run can tell (a narrower task configuration, a missing key). */
  advice: string[];
  /** The well-formed claim's answer, as the member would read it. */
  claim?: { status?: number; message?: string; answer: string };
  durationMs: number;
}

/** The result of {@link runConformance}. */
export interface ConformanceReport {
  /** The endpoint checked. */
  url: string;
  startedAt: string;
  /** The limits the run used, in ms. */
  timeoutMs: number;
  slowMs: number;
  /** Whether hardening findings counted as failures. */
  strict: boolean;
  /** The task's identification methods the claims were shaped for, when the run was given them. */
  identifications?: IdentificationMethod[];
  /** Set when the endpoint could not be reached at all; every check after the first is skipped. */
  unreachable?: string;
  /**
   * Set when the server answered, then stopped answering mid-run (it probably crashed): the
   * probes it stopped at, the last one answered, and the sentence of the `member.stays-up` check.
   */
  stoppedAnswering?: StoppedAnswering;
  checks: CheckResult[];
  summary: ReportSummary;
}

/** Progress of a run, for a live display. */
export interface ProgressEvent {
  /** Checks finished so far, this one included. */
  done: number;
  total: number;
  check: CheckResult;
}

/** The member a claim is made for. Every field has a synthetic default. */
export interface ClaimMember {
  userId?: string;
  communityId?: string;
  subdomain?: string;
  questId?: string;
  /** Defaults to a synthetic value for every identification method. */
  accounts?: Accounts;
}

/** Options of {@link runConformance}. */
export interface ConformanceOptions {
  /** The verification endpoint, http or https. */
  url: string;
  /**
   * The task's API key, sent as `X-Api-Key`. Without it (and without `noApiKey`) the run can
   * tell what the endpoint answers, but its verdict is `not_judged`.
   */
  apiKey?: string;
  /** The task has no API key: the platform sends none, so there is no key to drift. */
  noApiKey?: boolean;
  /**
   * The task's identification methods, in the contract's words. Claims are then shaped as the
   * platform shapes them for the task: `accounts` only when a method is configured, carrying each
   * configured method; other shapes become hardening probes. Without it, every shape the contract
   * allows is a platform probe. An empty list means none.
   */
  identifications?: readonly IdentificationMethod[];
  /** Hardening findings fail the run instead of warning. */
  strict?: boolean;
  /**
   * The tiers to run (default all). The member verdicts need no request of their own and are
   * always given; `members` adds the burst, the latency series and the connect checks.
   */
  tiers?: readonly Tier[];
  member?: ClaimMember;
  /** `pass`: the well-formed claim must answer 200; `fail`: it must answer 400. */
  expect?: 'pass' | 'fail';
  /** The time limit per request, in ms (default: the platform's 10 000). */
  timeoutMs?: number;
  /** Answers slower than this warn, in ms (default: half the time limit). */
  slowMs?: number;
  /** Concurrent claims of the burst (default 10). */
  burst?: number;
  /** Sequential claims of the latency series (default 10). */
  samples?: number;
  /** Run only the checks whose id equals or starts with one of these (`auth.`, `fields.missing`). */
  only?: readonly string[];
  /** Connect checks: the redirect URL of the task and the community secret. */
  connect?: ConnectOptions;
  /** Put the API key and signatures in the report and the curl lines instead of redacting them. */
  showSecrets?: boolean;
  /** Called after each check. */
  onProgress?: (event: ProgressEvent) => void;
  /** Stops the run: checks not yet run are skipped. */
  signal?: AbortSignal;
  /** Probes in flight at once (default 4); the burst and the latency series always run alone. */
  concurrency?: number;
  /** Stop at the first failed check; the rest are skipped. */
  failFast?: boolean;
  /**
   * Sends the requests instead of the global `fetch`: a fetch handler (`(request) => Response`)
   * runs the battery in-process, with no port.
   */
  fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
}

/** Options of the connect checks. */
export interface ConnectOptions {
  /** The redirect URL configured in the task. */
  url: string;
  /** The community secret. */
  secret: string;
  /** The platform callback the redirect carries (default a URL under `https://platform.invalid`). */
  callback?: string;
  /** The platform user id sent as `svcUserId` (default a random UUID). */
  svcUserId?: string;
}
