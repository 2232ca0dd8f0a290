import {
  deliveryFailure,
  type ObservedAnswer,
  recordReceivedAnswer,
  recordSentRequest,
  WEBHOOK_SUCCESS_STATUS,
} from '@questkit/core/api';
import { toCurl } from './curl.js';
import { endpointText } from './endpoint-text.js';
import { PREVIEW_CHARS, statusOf } from './judge.js';
import type { CheckResult, Finding } from './types.js';
import { deliveryRequest } from './webhook-deliveries.js';
import { WEBHOOK_CHECKS } from './webhook-plan.js';
import { formatExplanation, refusesSecret, WRONG_SECRET_GIVEN } from './webhook-refusal.js';
import type { DeliverySent } from './webhook-send.js';
import type { WebhookSettings } from './webhook-settings.js';

/** Environment variable the redacted curl lines read the webhook secret from. */
export const WEBHOOK_SECRET_ENV = 'QUESTKIT_WEBHOOK_SECRET';

/** Judges one sent delivery once: its findings, what was sent and received, and a curl line. */
export function judgeDelivery(sent: DeliverySent, settings: WebhookSettings): CheckResult {
  const { planned, exchange } = sent;
  const base = {
    id: planned.id,
    title: planned.title,
    group: 'webhook',
    tier: 'platform',
  } as const;
  if (exchange === undefined) {
    return {
      ...base,
      status: 'skip',
      findings: [],
      skipReason: sent.cut ?? 'not sent',
      durationMs: 0,
    };
  }
  const { request, answer } = exchange;
  const findings =
    planned.id === WEBHOOK_CHECKS.wrongSecret.id
      ? wrongSecretFindings(answer)
      : deliveryFindings(answer, settings.timeoutMs, planned.id === WEBHOOK_CHECKS.repeat.id);
  // Only the run's own secret is a secret; the made-up wrong one is shown as sent.
  const hidden = !settings.showSecrets && planned.secret === settings.secret;
  const record = { secrets: hidden ? [planned.secret] : [], maxBodyChars: PREVIEW_CHARS };
  const marker = `questkit-secret-${crypto.randomUUID()}`;
  const curl = hidden
    ? toCurl(deliveryRequest(request.url, planned.event, marker), {
        timeoutMs: settings.timeoutMs,
      }).replace(marker, `'"$${WEBHOOK_SECRET_ENV}"'`)
    : toCurl(request, { timeoutMs: settings.timeoutMs });
  return {
    ...base,
    status: statusOf(findings),
    findings,
    sent: recordSentRequest(request, record),
    received: recordReceivedAnswer(answer, record),
    curl,
    durationMs: sent.durationMs,
  };
}

function noAnswer(answer: ObservedAnswer): Finding[] {
  return [{ rule: 'no_answer', severity: 'error', message: answer.error ?? 'no answer' }];
}

function deliveryFindings(answer: ObservedAnswer, timeoutMs: number, repeat: boolean): Finding[] {
  if (answer.status === undefined && !answer.timedOut) return noAnswer(answer);
  const failure = deliveryFailure(answer);
  if (failure === null) {
    if (answer.elapsedMs > timeoutMs / 2) {
      return [
        {
          rule: 'webhook',
          severity: 'warning',
          message: `answered in ${Math.round(answer.elapsedMs)} ms, close to the platform's ${timeoutMs} ms limit: answer 200 first, then do slow work in the background`,
        },
      ];
    }
    return [];
  }
  const parts = [`${failure}.`];
  if (answer.timedOut) {
    parts.push(
      'The platform counts it as failed and retries it (about 10 minutes later, then 30, up to 15 times): answer 200 first, then do slow work in the background.',
    );
  } else if (answer.truncated) {
    parts.push('Answer a short body, such as {"ok":true}.');
  } else {
    const said = endpointText(answer.body);
    if (said !== undefined) parts.push(`It said: "${said}".`);
    if (answer.status === 201 || answer.status === 202 || answer.status === 204) {
      parts.push('201, 202 and 204 count as failures too: answer 200.');
    }
    if (repeat) {
      parts.push(
        'A retry or a replay carries the same event id: answer 200 to an event you already handled, or the platform retries it for days.',
      );
    }
    if (refusesSecret(said)) parts.push(WRONG_SECRET_GIVEN);
    const explanation = formatExplanation(answer);
    if (explanation !== null) parts.push(explanation);
  }
  return [{ rule: 'webhook', severity: 'error', message: parts.join(' ') }];
}

function wrongSecretFindings(answer: ObservedAnswer): Finding[] {
  if (answer.status === undefined) return noAnswer(answer);
  if (answer.status !== WEBHOOK_SUCCESS_STATUS) return [];
  return [
    {
      rule: 'webhook',
      severity: 'error',
      message:
        'accepted a delivery with a wrong secret (200): anyone who finds the URL can send you events. Compare the body\'s "secret" field with your webhook secret, in constant time, and refuse it (401) when it differs.',
    },
  ];
}
