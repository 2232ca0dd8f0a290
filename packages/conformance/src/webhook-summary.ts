import { endpointText } from './endpoint-text.js';
import { countVerdicts } from './judge.js';
import type { CheckResult, RunVerdict, StatusCounts } from './types.js';
import { WEBHOOK_CHECKS } from './webhook-plan.js';
import { formatExplanation, refusesSecret, WRONG_SECRET_GIVEN } from './webhook-refusal.js';

/** Counts and the verdict of a webhook receiver check. */
export interface WebhookSummary extends StatusCounts {
  /** `fail` when a check failed; `not_judged` when none failed but one got no answer. */
  verdict: RunVerdict;
  /** true when the verdict is `pass`: the exit code of `questkit check-webhook` is 0. */
  ok: boolean;
  /** One sentence when every delivery got the same wrong answer: the likely cause. */
  headline?: string;
  /** What to do next. */
  advice: string[];
  durationMs: number;
}

/** The verdict, the headline and the advice of a webhook receiver check, from its checks. */
export function summarizeWebhook(
  checks: readonly CheckResult[],
  url: string,
  durationMs: number,
): WebhookSummary {
  const verdict: RunVerdict = checks.some((c) => c.status === 'fail')
    ? 'fail'
    : checks.some((c) => c.status === 'not_judged' || c.status === 'skip') ||
        !checks.some((c) => c.status === 'pass' || c.status === 'warn')
      ? 'not_judged'
      : 'pass';
  const headline = headlineOf(checks, url);
  const refused = checks.some(
    (c) =>
      c.id !== WEBHOOK_CHECKS.wrongSecret.id &&
      c.status === 'fail' &&
      formatExplanation(c.received ?? { elapsedMs: 0 }) !== null,
  );
  const advice = refused
    ? [
        "questkit's webhook receiver reads deliveries this way: createWebhookReceiver from @questkit/core, or webhookEndpoint of @questkit/express, @questkit/fastify or @questkit/hono.",
      ]
    : [];
  return {
    ...countVerdicts(checks),
    verdict,
    ok: verdict === 'pass',
    ...(headline !== undefined ? { headline } : {}),
    advice,
    durationMs: Math.round(durationMs),
  };
}

/** One sentence when every good delivery got the same wrong answer. */
function headlineOf(checks: readonly CheckResult[], url: string): string | undefined {
  const good = checks.filter(
    (c) => c.id !== WEBHOOK_CHECKS.wrongSecret.id && c.received !== undefined,
  );
  const first = good[0]?.received;
  if (!first) return undefined;
  if (good.length === 1 && first.status === undefined && !first.timedOut) {
    return `No answer from ${url}: ${first.error ?? 'the request failed'}. Is the receiver running, and are the host, port and scheme right?`;
  }
  const statuses = new Set(good.map((c) => c.received?.status));
  if (statuses.size !== 1 || first.status === undefined || first.status === 200) return undefined;
  const path = new URL(url).pathname;
  if (first.status === 404)
    return `Every delivery got 404: nothing answers at ${path}. Is the path right?`;
  if (first.status === 405) {
    return `Every delivery got 405: nothing takes a POST at ${path}. Deliveries are POSTs of JSON.`;
  }
  const said = endpointText(first.body);
  if (refusesSecret(said)) {
    return `Every delivery got ${first.status}: the receiver says "${said}". ${WRONG_SECRET_GIVEN}`;
  }
  const explanation = formatExplanation(first);
  if (explanation !== null) {
    return `Every delivery got ${first.status}: the receiver refuses deliveries made as the platform makes them, so every event would be retried for days and then dropped. ${explanation}`;
  }
  return `Every delivery got ${first.status}${said !== undefined ? ` ("${said}")` : ''}: the platform counts each as failed and retries it for days.`;
}
