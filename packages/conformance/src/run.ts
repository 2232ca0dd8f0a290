import { IDENTIFICATION_METHODS, type IdentificationMethod } from '@questkit/core';
import { type ObservedAnswer, PLATFORM_TIMEOUT_MS, SLOW_WARNING_MS } from '@questkit/core/api';
import { buildBody, buildClaim } from './claim-body.js';
import { CONNECT_CHECKS, type ConnectCheckId, runConnectChecks } from './connect.js';
import { toCurl } from './curl.js';
import {
  expectationFindings,
  foldFindings,
  type Limits,
  latencyFindings,
  latencyStats,
  platformFindings,
  statusOf,
} from './judge.js';
import { CLAIM_PROBE_ID, PROBES, type Probe } from './probes.js';
import {
  fetchTransport,
  type OutgoingRequest,
  type SendOptions,
  send,
  type Transport,
} from './send.js';
import { summarize } from './summary.js';
import {
  type CheckResult,
  type ConformanceOptions,
  type ConformanceReport,
  type Finding,
  type ReceivedAnswer,
  type SentRequest,
  TIERS,
  type Tier,
} from './types.js';
import { MEMBER_VERDICT_IDS, memberVerdicts } from './verdicts.js';

/** Concurrent claims of the burst probe when the run names no count. */
export const DEFAULT_BURST = 10;
/** Sequential claims of the latency series when the run names no count. */
export const DEFAULT_SAMPLES = 10;
/** The key the wrong-key probe sends. */
export const WRONG_API_KEY = 'questkit-conformance-wrong-key';
/** Probes in flight at once when the run names no bound: a small endpoint takes it. */
export const DEFAULT_CONCURRENCY = 4;
// Once an answer never came, probes start only while the run can still end within this many
// time limits: an endpoint that never answers is judged in about 30 s, not 43 × 10 s.
const HUNG_BUDGET_LIMITS = 2.9;

// Bounds that keep a mistyped count from flooding an endpoint.
const MAX_REPEAT = 1000;
const PREVIEW_CHARS = 1000;

interface RunContext extends Limits {
  options: ConformanceOptions;
  apiKey?: string;
  identifications?: readonly IdentificationMethod[];
  tiers: readonly Tier[];
  showSecrets: boolean;
  burst: number;
  samples: number;
  concurrency: number;
  transport: Transport;
  baselineStatus?: number;
}

/**
 * The tier of a probe in this run. A shape probe is a platform probe unless the run names the
 * task's identification methods and the shape is not theirs: then the platform never sends it.
 */
export function tierOf(probe: Probe, identifications?: readonly IdentificationMethod[]): Tier {
  if (probe.shape === undefined || identifications === undefined) return probe.tier;
  const same =
    probe.shape.length === identifications.length &&
    probe.shape.every((method) => identifications.includes(method));
  return same ? probe.tier : 'hardening';
}

/**
 * Runs the conformance battery ({@link PROBES}, then the connect checks when `connect` is given)
 * against a verification endpoint over HTTP, whatever it is built with, and tells for each check
 * whether it passes and why not, in three tiers (platform, members, hardening). Never throws for
 * what the endpoint does; throws a TypeError for invalid options.
 *
 * The well-formed claim always runs first: it is the baseline other probes compare with, and when
 * it finds the endpoint unreachable every later check is skipped. The mock platform judges
 * endpoints with this function too (`tiers: ['platform']`), so both always agree.
 *
 * @example
 * const report = await runConformance({ url: 'https://app.example/verify', apiKey: process.env.KEY });
 * if (!report.summary.ok) console.log(formatHuman(report));
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const context = resolve(options);
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const selected = (id: string) => id === CLAIM_PROBE_ID || matches(options.only, id);
  const inTiers = (tier: Tier) => context.tiers.includes(tier);
  const tiered = (probe: Probe) => tierOf(probe, context.identifications);
  const probes = PROBES.filter(
    (probe) => probe.id === CLAIM_PROBE_ID || (selected(probe.id) && inTiers(tiered(probe))),
  );
  const connectIds =
    options.connect && inTiers('members')
      ? CONNECT_CHECKS.map((check) => check.id).filter((id) => selected(id))
      : [];
  // The member verdicts are counted too, so the progress count and the summary agree.
  const total = probes.length + connectIds.length + MEMBER_VERDICT_IDS.length;
  const checks: CheckResult[] = [];
  let stopReason: string | undefined;
  let hung = false;
  const record = (check: CheckResult) => {
    checks.push(check);
    if (check.received?.timedOut) hung = true;
    const counts = check.tier !== 'hardening' || options.strict === true;
    if (options.failFast && counts && check.status === 'fail' && stopReason === undefined) {
      stopReason = `not run: --fail-fast stopped the run at ${check.id}`;
    }
    options.onProgress?.({ done: checks.length, total, check });
  };
  /** Why a probe may not start now, or undefined when it may. */
  const blocked = (): string | undefined => {
    if (options.signal?.aborted) return 'the run was stopped';
    if (stopReason !== undefined) return stopReason;
    const budget = HUNG_BUDGET_LIMITS * context.timeoutMs;
    if (hung && performance.now() - started + context.timeoutMs > budget) {
      return `not judged: answers never came, and the run stops waiting after ${Math.round(budget / 1000)} s`;
    }
    return undefined;
  };

  // The well-formed claim first, alone: the baseline other probes compare with. When it finds
  // the endpoint unreachable, every later check is skipped.
  const [baseline, ...others] = probes;
  let unreachable: string | undefined;
  if (baseline) {
    const result = await runProbe(baseline, context);
    context.baselineStatus = result.received?.status;
    const error = result.received?.error;
    if (result.received?.status === undefined && !result.received?.timedOut && error) {
      unreachable = error;
      stopReason = 'the endpoint is unreachable';
    }
    record(result);
  }
  // Independent probes run side by side, at most `concurrency` at once; the burst and the latency
  // series run alone afterwards, so that nothing else skews them.
  const alone = (probe: Probe) => probe.mode === 'burst' || probe.mode === 'series';
  const runOne = async (probe: Probe) => {
    const reason = blocked();
    if (reason !== undefined) return record(skipped(probe, tiered(probe), reason));
    const result = await runProbe(probe, context);
    // A probe in flight when the run was stopped judged nothing.
    if (options.signal?.aborted && result.received?.error === 'the run was stopped') {
      return record(skipped(probe, tiered(probe), 'the run was stopped'));
    }
    record(result);
  };
  await runPool(
    others.filter((probe) => !alone(probe)),
    context.concurrency,
    runOne,
  );
  for (const probe of others.filter(alone)) await runOne(probe);

  if (options.connect) {
    const check = (id: ConnectCheckId) => CONNECT_CHECKS.find((check) => check.id === id)!;
    const reason = blocked();
    if (reason !== undefined) {
      for (const id of connectIds) {
        record(skipped({ id, title: check(id).title, group: 'connect' }, 'members', reason));
      }
    } else {
      await runConnectChecks({
        options: options.connect,
        timeoutMs: context.timeoutMs,
        showSecrets: context.showSecrets,
        ...(options.signal ? { stop: options.signal } : {}),
        selected: (id) => connectIds.includes(id),
        report: record,
      });
    }
  }

  // Reported in the battery's order, whatever order they finished in.
  const order = [...probes.map((probe) => probe.id), ...connectIds];
  checks.sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
  const verdicts = memberVerdicts(checks, {
    apiKey: context.apiKey !== undefined,
    noApiKey: options.noApiKey === true,
    questId: options.member?.questId !== undefined,
    ...(options.expect ? { expect: options.expect } : {}),
  });
  for (const verdict of verdicts) record(verdict);

  return {
    url: options.url,
    startedAt,
    timeoutMs: context.timeoutMs,
    slowMs: context.slowMs,
    strict: options.strict === true,
    ...(context.identifications ? { identifications: [...context.identifications] } : {}),
    ...(unreachable !== undefined ? { unreachable } : {}),
    checks,
    summary: summarize(checks, {
      url: options.url,
      keyDecided: context.apiKey !== undefined || options.noApiKey === true,
      strict: options.strict === true,
      identifications: context.identifications,
      shapeOf: (check) =>
        check.id === CLAIM_PROBE_ID
          ? wellFormedShape(context)
          : PROBES.find((probe) => probe.id === check.id)?.shape,
      durationMs: performance.now() - started,
    }),
  };
}

/** The identification methods the well-formed claim's `accounts` carries. */
function wellFormedShape(context: RunContext): readonly IdentificationMethod[] {
  const claim = buildClaim(context.options.member, '', context.identifications);
  return IDENTIFICATION_METHODS.filter((method) => claim.accounts?.[method] !== undefined);
}

/** Runs `work` on every item, at most `limit` at a time. */
async function runPool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function resolve(options: ConformanceOptions): RunContext {
  const fail = (message: string): never => {
    throw new TypeError(`[@questkit/conformance] ${message}`);
  };
  if (typeof options !== 'object' || options === null) fail('options are required');
  if (!isHttpUrl(options.url)) fail('url must be an absolute http(s) URL');
  if (
    options.apiKey !== undefined &&
    (typeof options.apiKey !== 'string' || options.apiKey === '')
  ) {
    fail('apiKey must be a non-empty string when given');
  }
  if (options.noApiKey === true && options.apiKey !== undefined) {
    fail('apiKey and noApiKey exclude each other: the task has a key or it has none');
  }
  const identifications = options.identifications;
  if (identifications !== undefined) {
    if (!Array.isArray(identifications)) fail('identifications must be an array');
    for (const method of identifications) {
      if (!(IDENTIFICATION_METHODS as readonly string[]).includes(method)) {
        fail(
          `identifications: unknown method ${JSON.stringify(method)}; use ${IDENTIFICATION_METHODS.join(', ')}`,
        );
      }
    }
    if (new Set(identifications).size !== identifications.length) {
      fail('identifications: a method is named twice');
    }
  }
  const tiers = options.tiers ?? TIERS;
  if (!Array.isArray(tiers) || tiers.some((tier) => !(TIERS as readonly string[]).includes(tier))) {
    fail(`tiers must be a list of ${TIERS.join(', ')}`);
  }
  if (options.expect !== undefined && options.expect !== 'pass' && options.expect !== 'fail') {
    fail("expect must be 'pass' or 'fail'");
  }
  const timeoutMs = options.timeoutMs ?? PLATFORM_TIMEOUT_MS;
  if (!isPositiveInteger(timeoutMs)) fail('timeoutMs must be a positive integer');
  const slowMs = options.slowMs ?? Math.round((timeoutMs * SLOW_WARNING_MS) / PLATFORM_TIMEOUT_MS);
  if (!isPositiveInteger(slowMs)) fail('slowMs must be a positive integer');
  const burst = options.burst ?? DEFAULT_BURST;
  const samples = options.samples ?? DEFAULT_SAMPLES;
  if (!isPositiveInteger(burst) || burst > MAX_REPEAT) fail(`burst must be 1 to ${MAX_REPEAT}`);
  if (!isPositiveInteger(samples) || samples > MAX_REPEAT)
    fail(`samples must be 1 to ${MAX_REPEAT}`);
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (!isPositiveInteger(concurrency) || concurrency > 64) fail('concurrency must be 1 to 64');
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    fail('fetch must be a function (request) => Promise<Response>');
  }
  if (options.connect) {
    if (!isHttpUrl(options.connect.url)) fail('connect.url must be an absolute http(s) URL');
    if (typeof options.connect.secret !== 'string' || options.connect.secret === '') {
      fail('connect.secret must be a non-empty string');
    }
    if (options.connect.callback !== undefined && !isHttpUrl(options.connect.callback)) {
      fail('connect.callback must be an absolute http(s) URL');
    }
  }
  return {
    options,
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
    ...(identifications !== undefined ? { identifications } : {}),
    tiers,
    showSecrets: options.showSecrets === true,
    timeoutMs,
    slowMs,
    burst,
    samples,
    concurrency,
    transport: fetchTransport(options.fetch),
  };
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

function matches(only: readonly string[] | undefined, id: string): boolean {
  if (!only || only.length === 0) return true;
  return only.some((prefix) => id === prefix || id.startsWith(prefix));
}

function skipped(
  check: { id: string; title: string; group: string },
  tier: Tier,
  skipReason: string,
): CheckResult {
  const { id, title, group } = check;
  return { id, title, group, tier, status: 'skip', findings: [], skipReason, durationMs: 0 };
}

interface Exchange {
  request: OutgoingRequest;
  answer: ObservedAnswer;
  findings: Finding[];
}

async function runProbe(probe: Probe, context: RunContext): Promise<CheckResult> {
  const tier = tierOf(probe, context.identifications);
  if (probe.needsApiKey && context.apiKey === undefined) {
    return skipped(
      probe,
      tier,
      context.options.noApiKey
        ? 'the task has no API key, so there is no key to drift'
        : 'no API key given: give the task API key (--api-key) to check what a drifted key gets',
    );
  }
  const started = performance.now();
  const exchanges: Exchange[] = [];
  const mode = probe.mode ?? 'single';

  const first = buildRequest(probe, context);
  if (!first.ok) return skipped(probe, tier, first.reason);

  if (mode === 'burst') {
    const requests = [first.request];
    for (let i = 1; i < context.burst; i++) {
      const next = buildRequest(probe, context);
      if (next.ok) requests.push(next.request);
    }
    const answers = await Promise.all(
      requests.map((request) => send(request, sendOptions(context))),
    );
    for (const [i, request] of requests.entries()) {
      exchanges.push(judge(probe, request, answers[i]!, context));
    }
  } else {
    const count = mode === 'series' ? context.samples : 1;
    let request = first.request;
    for (let i = 0; i < count; i++) {
      const answer = await send(request, sendOptions(context));
      exchanges.push(judge(probe, request, answer, context));
      // One timeout says enough; waiting out the rest of the series would only slow the run.
      if (answer.timedOut || context.options.signal?.aborted) break;
      const next = buildRequest(probe, context);
      if (!next.ok) break;
      request = next.request;
    }
  }

  let findings = foldFindings(exchanges.map((exchange) => exchange.findings));
  const result: Partial<CheckResult> = {};
  if (mode !== 'single') {
    const statuses: Record<string, number> = {};
    for (const { answer } of exchanges) {
      const key =
        answer.status !== undefined ? String(answer.status) : answer.timedOut ? 'timeout' : 'error';
      statuses[key] = (statuses[key] ?? 0) + 1;
    }
    result.statuses = statuses;
  }
  if (mode === 'series') {
    const stats = latencyStats(exchanges.map(({ answer }) => answer.elapsedMs));
    result.latency = stats;
    findings = [...findings, ...latencyFindings(stats, context)];
  }
  // The platform never sends a hardening probe: what it finds warns, unless the run is strict.
  if (tier === 'hardening' && context.options.strict !== true) {
    findings = findings.map((finding) =>
      finding.severity === 'error' && finding.rule !== 'no_answer'
        ? { ...finding, severity: 'warning' }
        : finding,
    );
  }
  const shown =
    exchanges.find((exchange) => statusOf(exchange.findings) === 'fail') ??
    exchanges.find((exchange) => exchange.findings.length > 0) ??
    exchanges[0]!;
  return {
    id: probe.id,
    title: probe.title,
    group: probe.group,
    tier,
    status: statusOf(findings),
    findings,
    sent: describeSent(shown.request, context.showSecrets ? undefined : context.apiKey),
    received: describeReceived(shown.answer),
    curl: toCurl(shown.request, {
      timeoutMs: context.timeoutMs,
      ...(context.showSecrets ? {} : { redactApiKey: context.apiKey }),
    }),
    ...result,
    durationMs: Math.round(performance.now() - started),
  };
}

function judge(
  probe: Probe,
  request: OutgoingRequest,
  answer: ObservedAnswer,
  context: RunContext,
): Exchange {
  const expectation = expectationFindings(probe, answer, {
    ...(context.baselineStatus !== undefined ? { baselineStatus: context.baselineStatus } : {}),
  });
  return { request, answer, findings: [...platformFindings(answer, context), ...expectation] };
}

type BuiltRequest = { ok: true; request: OutgoingRequest } | { ok: false; reason: string };

function buildRequest(probe: Probe, context: RunContext): BuiltRequest {
  const spec = probe.request;
  const claim = buildClaim(context.options.member, crypto.randomUUID(), context.identifications);
  const body = buildBody(spec.body ?? { kind: 'claim' }, claim);
  if (!body.ok) return body;
  const headers: Record<string, string> = {};
  const contentType = spec.contentType === undefined ? 'application/json' : spec.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  const keyMode = spec.apiKey ?? 'valid';
  if (keyMode === 'valid' && context.apiKey !== undefined) headers['x-api-key'] = context.apiKey;
  if (keyMode === 'wrong') {
    headers['x-api-key'] = context.apiKey === WRONG_API_KEY ? `${WRONG_API_KEY}-2` : WRONG_API_KEY;
  }
  const request: OutgoingRequest = {
    method: spec.method ?? 'POST',
    url: context.options.url,
    headers,
  };
  if (body.text !== undefined) request.body = body.text;
  return { ok: true, request };
}

function preview(text: string): string {
  return text.length <= PREVIEW_CHARS
    ? text
    : `${text.slice(0, PREVIEW_CHARS)}… (${text.length} characters in all)`;
}

function describeSent(request: OutgoingRequest, secretApiKey: string | undefined): SentRequest {
  const headers = { ...request.headers };
  // Only the run's own key is a secret; the made-up wrong key is shown as sent.
  if (secretApiKey !== undefined && headers['x-api-key'] === secretApiKey) {
    headers['x-api-key'] = 'REDACTED';
  }
  return {
    method: request.method,
    url: request.url,
    headers,
    ...(request.body !== undefined ? { body: preview(request.body) } : {}),
    bodyBytes: request.body === undefined ? 0 : new TextEncoder().encode(request.body).length,
  };
}

function sendOptions(context: RunContext): SendOptions {
  return {
    timeoutMs: context.timeoutMs,
    signal: context.options.signal,
    transport: context.transport,
  };
}

function describeReceived(answer: ObservedAnswer): ReceivedAnswer {
  return {
    elapsedMs: Math.round(answer.elapsedMs * 10) / 10,
    ...(answer.status !== undefined ? { status: answer.status } : {}),
    ...(answer.contentType !== undefined ? { contentType: answer.contentType } : {}),
    ...(answer.location ? { location: answer.location } : {}),
    ...(answer.body !== undefined ? { body: preview(answer.body) } : {}),
    ...(answer.timedOut ? { timedOut: true } : {}),
    ...(answer.error !== undefined ? { error: answer.error } : {}),
  };
}
