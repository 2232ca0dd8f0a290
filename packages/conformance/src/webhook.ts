import { WEBHOOK_MAX_ANSWER_BYTES } from '@questkit/core/api';
import { redactReport } from './redact-report.js';
import type { CheckResult } from './types.js';
import { judgeDelivery } from './webhook-judge.js';
import { planDeliveries } from './webhook-plan.js';
import { sendDeliveries } from './webhook-send.js';
import { resolveWebhookSettings, type WebhookCheckOptions } from './webhook-settings.js';
import { summarizeWebhook, type WebhookSummary } from './webhook-summary.js';

export { WEBHOOK_SECRET_ENV } from './webhook-judge.js';
export { WEBHOOK_CHECKS, WRONG_WEBHOOK_SECRET } from './webhook-plan.js';
export type { WebhookCheckOptions } from './webhook-settings.js';
export type { WebhookSummary } from './webhook-summary.js';

/** The result of {@link checkWebhookReceiver}. */
export interface WebhookReport {
  /** The receiver checked. */
  url: string;
  startedAt: string;
  /** The time limit per delivery, in ms. */
  timeoutMs: number;
  /** The largest answer body of a successful delivery, in bytes. */
  maxAnswerBytes: number;
  /** Set when the receiver could not be reached at all; the checks after the first are skipped. */
  unreachable?: string;
  checks: CheckResult[];
  summary: WebhookSummary;
}

/**
 * Checks a webhook receiver the way the platform delivers (`questkit check-webhook`): one
 * delivery of every event type with realistic `data`, the same delivery again (a retry), and one
 * with a wrong secret, each a POST of the event plus `secret` in a JSON body, with no signature
 * header. It passes when each good delivery gets exactly 200 within 5 s with at most 5,000 bytes
 * of body, and the wrong secret does not get 200. A refusal is explained (where the secret and
 * the event's fields are); the mock platform's delivery attempts say the same. Never throws for
 * what the receiver does; throws a TypeError for invalid options.
 *
 * The stages are the endpoint judge's: the deliveries planned as data, sent one after another,
 * each judged once as it ends, then the summary; the reporters format the report.
 *
 * @example
 * const report = await checkWebhookReceiver({ url: 'https://app.example/webhooks', secret });
 * if (!report.summary.ok) console.log(formatWebhookHuman(report));
 */
export async function checkWebhookReceiver(options: WebhookCheckOptions): Promise<WebhookReport> {
  const settings = resolveWebhookSettings(options);
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const plan = planDeliveries(settings.secret);
  const checks: CheckResult[] = [];
  const sending = await sendDeliveries(plan, settings, (sent) => {
    const check = judgeDelivery(sent, settings);
    checks.push(check);
    options.onProgress?.({ done: checks.length, total: plan.length, check });
  });
  const report: WebhookReport = {
    url: settings.url,
    startedAt,
    timeoutMs: settings.timeoutMs,
    maxAnswerBytes: WEBHOOK_MAX_ANSWER_BYTES,
    ...sending,
    checks,
    summary: summarizeWebhook(checks, settings.url, performance.now() - started),
  };
  // Whatever the receiver said back (an echo of the delivery), the secret is never printed.
  return redactReport(report, settings.showSecrets ? [] : [settings.secret]);
}
