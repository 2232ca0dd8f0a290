import {
  deliveryFailure,
  explainRefusedDelivery,
  type ObservedAnswer,
  recordReceivedAnswer,
  recordSentRequest,
  WEBHOOK_MAX_ANSWER_BYTES,
  WEBHOOK_SUCCESS_STATUS,
  WEBHOOK_TIMEOUT_MS,
  type WebhookEvent,
} from '@questkit/core/api';
import { toCurl } from './curl.js';
import { endpointText } from './endpoint-text.js';
import { countVerdicts, PREVIEW_CHARS, statusOf } from './judge.js';
import { redactReport } from './redact-report.js';
import { fetchTransport, type OutgoingRequest, STOPPED, send, type Transport } from './send.js';
import type { CheckResult, Finding, ProgressEvent, RunVerdict, StatusCounts } from './types.js';
import { deliveryRequest, type SampleIds, sampleEvents } from './webhook-deliveries.js';

/** Options of {@link checkWebhookReceiver}. */
export interface WebhookCheckOptions {
  /** The webhook's `uri`: where the platform POSTs deliveries. */
  url: string;
  /** The webhook's secret, sent in each delivery's body as `secret`. */
  secret: string;
  /** The time limit per delivery, in ms (default the platform's 5 000). */
  timeoutMs?: number;
  /** Put the secret in the report and the curl lines instead of redacting it. */
  showSecrets?: boolean;
  /** Called after each check. */
  onProgress?: (event: ProgressEvent) => void;
  /** Stops the run: deliveries not yet sent are skipped. */
  signal?: AbortSignal;
  /** Sends the deliveries instead of the global `fetch` (a fetch handler runs them in-process). */
  fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
}

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

/** The checks of a webhook receiver, in the order they run (one delivery per event type first). */
export const WEBHOOK_CHECKS = {
  /** One good delivery of an event type. */
  delivery: (type: string) => ({
    id: `webhook.delivery.${type}`,
    title: `A ${type} delivery gets exactly 200 within 5 s, with at most 5,000 bytes of body`,
  }),
  /** The first delivery again, with the same event id. */
  repeat: {
    id: 'webhook.repeat',
    title: 'The same delivery again (a retry: the same event id) gets 200 too',
  },
  /** A delivery with a wrong secret. */
  wrongSecret: {
    id: 'webhook.wrong-secret',
    title: 'A delivery with a wrong secret does not get 200',
  },
} as const;

/** The secret the wrong-secret delivery carries. */
export const WRONG_WEBHOOK_SECRET = 'questkit-check-webhook-wrong-secret';
/** Environment variable the redacted curl lines read the webhook secret from. */
export const WEBHOOK_SECRET_ENV = 'QUESTKIT_WEBHOOK_SECRET';

interface Context {
  options: WebhookCheckOptions;
  timeoutMs: number;
  transport: Transport;
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
 * @example
 * const report = await checkWebhookReceiver({ url: 'https://app.example/webhooks', secret });
 * if (!report.summary.ok) console.log(formatWebhookHuman(report));
 */
export async function checkWebhookReceiver(options: WebhookCheckOptions): Promise<WebhookReport> {
  const context = resolve(options);
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const ids: SampleIds = {
    communityId: crypto.randomUUID(),
    subdomain: 'questkit-check',
    userId: crypto.randomUUID(),
    questId: crypto.randomUUID(),
  };
  const events = sampleEvents(ids);
  const [wrong] = sampleEvents(ids);
  const plan: Array<{ id: string; title: string; event: WebhookEvent; secret: string }> = [
    ...events.map((event) => ({
      ...WEBHOOK_CHECKS.delivery(event.type),
      event,
      secret: options.secret,
    })),
    { ...WEBHOOK_CHECKS.repeat, event: events[0]!, secret: options.secret },
    { ...WEBHOOK_CHECKS.wrongSecret, event: wrong!, secret: WRONG_WEBHOOK_SECRET },
  ];
  const checks: CheckResult[] = [];
  const record = (check: CheckResult) => {
    checks.push(check);
    options.onProgress?.({ done: checks.length, total: plan.length, check });
  };
  let unreachable: string | undefined;
  for (const step of plan) {
    const stopped = options.signal?.aborted ? STOPPED : undefined;
    const why = stopped ?? (unreachable !== undefined ? 'the receiver is unreachable' : undefined);
    if (why !== undefined) {
      record(skipped(step, why));
      continue;
    }
    const request = deliveryRequest(options.url, step.event, step.secret);
    const begun = performance.now();
    const answer = await send(request, {
      timeoutMs: context.timeoutMs,
      // One byte over the limit is enough to know the body is too big.
      maxBodyBytes: WEBHOOK_MAX_ANSWER_BYTES,
      transport: context.transport,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (answer.error === STOPPED) {
      record(skipped(step, STOPPED));
      continue;
    }
    if (checks.length === 0 && answer.status === undefined && !answer.timedOut) {
      unreachable = answer.error ?? 'the request failed';
    }
    const findings =
      step.id === WEBHOOK_CHECKS.wrongSecret.id
        ? wrongSecretFindings(answer)
        : deliveryFindings(answer, context.timeoutMs, step.id === WEBHOOK_CHECKS.repeat.id);
    record(result(step, request, answer, findings, begun, context));
  }
  const report: WebhookReport = {
    url: options.url,
    startedAt,
    timeoutMs: context.timeoutMs,
    maxAnswerBytes: WEBHOOK_MAX_ANSWER_BYTES,
    ...(unreachable !== undefined ? { unreachable } : {}),
    checks,
    summary: summarize(checks, options.url, performance.now() - started),
  };
  // Whatever the receiver said back (an echo of the delivery), the secret is never printed.
  return redactReport(report, options.showSecrets === true ? [] : [options.secret]);
}

function resolve(options: WebhookCheckOptions): Context {
  const fail = (message: string): never => {
    throw new TypeError(`[@questkit/conformance] ${message}`);
  };
  if (typeof options !== 'object' || options === null) fail('options are required');
  let url: URL | undefined;
  try {
    url = new URL(options.url);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    fail('url must be an absolute http(s) URL');
  }
  if (typeof options.secret !== 'string' || options.secret === '') {
    fail('secret must be a non-empty string: the webhook secret');
  }
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) fail('timeoutMs must be a positive integer');
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    fail('fetch must be a function (request) => Promise<Response>');
  }
  return { options, timeoutMs, transport: fetchTransport(options.fetch) };
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

// The receiver's own words say which of its checks refused: its secret, or the delivery's form.
const ABOUT_SECRET = /secret/i;
const ABOUT_FORM =
  /sign|hmac|header|auth|token|field|missing|required|invalid|expected|event|payload|body|data|type|json|schema|format|unknown|user-agent/i;

const WRONG_SECRET_GIVEN =
  "The receiver says the secret is wrong: is --secret the webhook's own secret (the platform shows it with the webhook)? A receiver that reads the secret from the body, as the platform sends it, answers 200 once they match.";

/** Whether a receiver's refusal is about the secret itself. */
function refusesSecret(said: string | undefined): boolean {
  return said !== undefined && ABOUT_SECRET.test(said);
}

/**
 * The explanation of how the platform makes a delivery, for a refusal about its form (or one
 * without words to tell): never when the receiver says its secret differs, nor when it says
 * something else (a failure of its own).
 */
function formatExplanation(answer: ObservedAnswer): string | null {
  const said = endpointText(answer.body);
  if (refusesSecret(said)) return null;
  if (said !== undefined && !ABOUT_FORM.test(said)) return null;
  return explainRefusedDelivery(answer);
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

function skipped(step: { id: string; title: string }, skipReason: string): CheckResult {
  return {
    id: step.id,
    title: step.title,
    group: 'webhook',
    tier: 'platform',
    status: 'skip',
    findings: [],
    skipReason,
    durationMs: 0,
  };
}

function result(
  step: { id: string; title: string; event: WebhookEvent; secret: string },
  request: OutgoingRequest,
  answer: ObservedAnswer,
  findings: Finding[],
  begun: number,
  context: Context,
): CheckResult {
  // Only the run's own secret is a secret; the made-up wrong one is shown as sent.
  const hidden = context.options.showSecrets !== true && step.secret === context.options.secret;
  const record = { secrets: hidden ? [step.secret] : [], maxBodyChars: PREVIEW_CHARS };
  const sent = recordSentRequest(request, record);
  const received = recordReceivedAnswer(answer, record);
  const marker = `questkit-secret-${crypto.randomUUID()}`;
  const curl = hidden
    ? toCurl(deliveryRequest(request.url, step.event, marker), {
        timeoutMs: context.timeoutMs,
      }).replace(marker, `'"$${WEBHOOK_SECRET_ENV}"'`)
    : toCurl(request, { timeoutMs: context.timeoutMs });
  return {
    id: step.id,
    title: step.title,
    group: 'webhook',
    tier: 'platform',
    status: statusOf(findings),
    findings,
    sent,
    received,
    curl,
    durationMs: Math.round(performance.now() - begun),
  };
}

function summarize(
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
