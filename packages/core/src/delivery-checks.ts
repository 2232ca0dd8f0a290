import type { ObservedAnswer } from './checks.js';
import type { WebhookEvent } from './schemas/webhook-events.js';

// The platform's rules for a webhook delivery, as its public documentation states them
// (platform-docs-notes.md §1, "webhook delivery success", "webhook authenticity", "two
// timeouts"), and the one explanation of the delivery format. The mock platform's deliveries and
// `questkit check-webhook` both judge with these, so they never disagree.

/**
 * A try succeeds only on exactly this status ("exactly 200": 201 and 204 are failures).
 * Source: platform-docs-notes.md §1, "webhook delivery success".
 */
export const WEBHOOK_SUCCESS_STATUS = 200;

/**
 * Time a receiver has for its whole answer, body included, in ms.
 * Source: platform-docs-notes.md §1, "webhook delivery success" and "two timeouts" (5 s).
 */
export const WEBHOOK_TIMEOUT_MS = 5_000;

/**
 * The largest answer body of a successful try, in bytes; a bigger one is a failure.
 * Source: platform-docs-notes.md §1, "webhook delivery success" (at most 5,000 bytes).
 */
export const WEBHOOK_MAX_ANSWER_BYTES = 5_000;

/**
 * The `User-Agent` of every delivery; some receivers refuse any other.
 * Source: platform-docs-notes.md §3, "User-Agent" (clients).
 */
export const WEBHOOK_USER_AGENT = 'Svc-Webhook';

/**
 * Why a delivery's answer fails the platform's rule, or null when it succeeds: exactly 200,
 * complete within the time limit, with at most {@link WEBHOOK_MAX_ANSWER_BYTES} bytes of body
 * (read the body with that limit: `truncated` says it was longer).
 *
 * @example
 * deliveryFailure({ status: 204, elapsedMs: 3 }); // 'answered 204; a delivery needs exactly 200'
 */
export function deliveryFailure(
  answer: Pick<ObservedAnswer, 'status' | 'truncated' | 'error'>,
): string | null {
  if (answer.status === undefined) return answer.error ?? 'no answer';
  if (answer.status !== WEBHOOK_SUCCESS_STATUS) {
    return `answered ${answer.status}; a delivery needs exactly ${WEBHOOK_SUCCESS_STATUS}`;
  }
  if (answer.truncated) {
    return `answered ${WEBHOOK_SUCCESS_STATUS} with a body over ${WEBHOOK_MAX_ANSWER_BYTES} bytes`;
  }
  return null;
}

// Statuses a receiver uses to refuse what it was sent: the format is the likely cause. Others
// (404, 405, 5xx, a timeout) point at the URL, the route or the handler instead.
const REFUSALS = new Set([400, 401, 403, 415, 422]);

/**
 * When a receiver refused a correctly made delivery (400, 401, 403, 415, 422): how deliveries are
 * made, led by what the status suggests it expected (a signature header for 401/403, another
 * body shape for 400/422): what receivers written for another picture of the platform trip on.
 * Null for any other answer.
 *
 * @example
 * explainRefusedDelivery({ status: 401, elapsedMs: 2 });
 * // 'Deliveries carry no signature header: ...'
 */
export function explainRefusedDelivery(answer: Pick<ObservedAnswer, 'status'>): string | null {
  if (answer.status === undefined || !REFUSALS.has(answer.status)) return null;
  const header = `Deliveries carry no signature header (no HMAC to verify): the webhook secret travels in the JSON body, as its "secret" field; compare it with your webhook secret. The User-Agent is ${WEBHOOK_USER_AGENT}.`;
  const shape =
    'The body is the event {id, type, data, time} plus "secret" ("time" in milliseconds), and the event\'s own fields sit under "data", nested: data.user.id, data.quest.id, data.community.subdomain (not body.userId, not data.userId).';
  const lead = answer.status === 401 || answer.status === 403 ? [header, shape] : [shape, header];
  return lead.join(' ');
}

/**
 * The body of a delivery, exactly as the platform sends it: the event's fields, plus the
 * webhook's `secret` (platform-docs-notes.md §1, "webhook authenticity"). The request is a POST
 * with `content-type: application/json`, `User-Agent: Svc-Webhook` and no signature header.
 *
 * @example
 * await fetch(uri, {
 *   method: 'POST',
 *   headers: { 'content-type': 'application/json', 'user-agent': WEBHOOK_USER_AGENT },
 *   body: deliveryBody(event, secret),
 * });
 */
export function deliveryBody(
  event: WebhookEvent | Readonly<Record<string, unknown>>,
  secret: string,
): string {
  return JSON.stringify({ ...event, secret });
}
