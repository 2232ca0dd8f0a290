import { exchangeAll } from './exchange.js';
import { counts, judgeConnect, judgeProbe } from './judge.js';
import { planRun } from './plan.js';
import { CLAIM_PROBE_ID } from './probes.js';
import { redactReport } from './redact-report.js';
import { resolveSettings } from './settings.js';
import { stoppedAnswering } from './stopped-answering.js';
import { summarize } from './summary.js';
import type { CheckResult, ConformanceOptions, ConformanceReport } from './types.js';
import { MEMBER_VERDICT_IDS, memberVerdicts } from './verdicts.js';

export { WRONG_API_KEY } from './claim-body.js';
export { tierOf } from './plan.js';
export { DEFAULT_BURST, DEFAULT_CONCURRENCY, DEFAULT_SAMPLES } from './settings.js';

/**
 * Runs the conformance battery ({@link PROBES}, then the connect checks when `connect` is given)
 * against a verification endpoint over HTTP, whatever it is built with, and tells for each check
 * whether it passes and why not, in three tiers (platform, members, hardening). Never throws for
 * what the endpoint does; throws a TypeError for invalid options. However slowly the endpoint
 * answers, the run ends within 2.9 time limits (29 s with the platform's 10 s).
 *
 * The run reads like core's verifier: the options resolved, the probes planned as data, sent,
 * each judged once, then the member verdicts and the summary. The well-formed claim runs first:
 * it is the baseline other probes compare with, and when it finds the endpoint unreachable every
 * later check is skipped. The mock platform judges endpoints with this function too
 * (`tiers: ['platform']`), so both always agree.
 *
 * @example
 * const report = await runConformance({ url: 'https://app.example/verify', apiKey: process.env.KEY });
 * if (!report.summary.ok) console.log(formatHuman(report));
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const settings = resolveSettings(options);
  const plan = await planRun(settings, MEMBER_VERDICT_IDS.length);
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const checks: CheckResult[] = [];
  const record = (check: CheckResult) => {
    checks.push(check);
    options.onProgress?.({ done: checks.length, total: plan.total, check });
  };

  const sending = await exchangeAll(plan, settings, (sent) => {
    const baseline = checks.find((check) => check.id === CLAIM_PROBE_ID)?.received?.status;
    const check = judgeProbe(sent, settings, baseline);
    record(check);
    const stops = options.failFast && check.status === 'fail' && counts(check, settings.strict);
    return stops ? `not run: --fail-fast stopped the run at ${check.id}` : undefined;
  });
  if (sending.connect)
    for (const check of await judgeConnect(sending.connect, settings)) record(check);

  // Reported in the battery's order, whatever order they finished in.
  const order = [...plan.probes.map((planned) => planned.probe.id), ...(plan.connect?.ids ?? [])];
  checks.sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
  const stopped = stoppedAnswering(sending.timeline);
  const verdicts = memberVerdicts(checks, {
    ...(stopped ? { stopped } : {}),
    apiKey: settings.apiKey !== undefined,
    noApiKey: options.noApiKey === true,
    questId: options.member?.questId !== undefined,
    ...(options.expect ? { expect: options.expect } : {}),
  });
  for (const verdict of verdicts) record(verdict);

  const report: ConformanceReport = {
    url: options.url,
    startedAt,
    timeoutMs: settings.timeoutMs,
    slowMs: settings.slowMs,
    strict: settings.strict,
    ...(settings.identifications ? { identifications: [...settings.identifications] } : {}),
    ...(sending.unreachable !== undefined ? { unreachable: sending.unreachable } : {}),
    ...(stopped ? { stoppedAnswering: stopped } : {}),
    checks,
    summary: summarize(checks, {
      url: options.url,
      ...(stopped ? { stopped } : {}),
      keyDecided: settings.apiKey !== undefined || options.noApiKey === true,
      strict: settings.strict,
      identifications: settings.identifications,
      shapeOf: (check) => plan.probes.find((planned) => planned.probe.id === check.id)?.shape,
      durationMs: performance.now() - started,
    }),
  };
  // Whatever the endpoint said back, the key and the connect secret are never printed.
  return redactReport(
    report,
    settings.showSecrets ? [] : [settings.apiKey, options.connect?.secret],
  );
}
