import type { DoorAnswer, DoorRequest } from '../adapter/door.js';
import { frontDoor } from '../front-door/index.js';
import { type WebhookEvent, WebhookEventSchema } from '../schemas/webhook-events.js';
import { matchSecret } from '../secrets.js';
import { webhookAnswer as answer } from './answer.js';
import type { ReceiverConfig } from './options.js';

/** A delivery that came in whole, from the secret's holder, as an event. */
export interface Delivery {
  event: WebhookEvent;
  /** The body without its `secret`: what the typed event is parsed from. */
  fields: Record<string, unknown>;
  /** When the answer is due. */
  deadline: number;
}

/**
 * The delivery's steps before any handler, in order: method, read (within the size limit and
 * the deadline), JSON, secret, envelope. Each refusal is the answer itself; the secret comes
 * before the envelope, so nothing about the event is told to a sender without it.
 */
export async function readDelivery(
  config: ReceiverConfig,
  request: DoorRequest,
): Promise<Delivery | DoorAnswer> {
  const door = frontDoor(request, { timeoutMs: config.timeoutMs, maxBytes: config.maxBodyBytes });
  if (door.method !== 'POST') {
    return answer(400, 'Webhook deliveries are POST requests.', await door.close());
  }
  const read = await door.read();
  if (!read.ok) {
    const close = await door.close();
    if (read.reason === 'too_large') return answer(400, 'The delivery is too large.', close);
    return answer(400, 'The delivery could not be read.', close);
  }
  let body: unknown;
  if ('parsed' in read) body = read.parsed;
  else {
    try {
      body = JSON.parse(read.text);
    } catch {
      return answer(400, 'The delivery is not valid JSON.');
    }
  }
  const { secret, ...fields } = (typeof body === 'object' && body !== null ? body : {}) as {
    secret?: unknown;
  };
  if (typeof secret !== 'string' || !matchSecret(secret, config.secrets)) {
    return answer(401, 'The webhook secret is missing or wrong.');
  }
  const envelope = WebhookEventSchema.safeParse(fields);
  if (!envelope.success) {
    const issue = envelope.error.issues[0];
    return answer(
      400,
      `The delivery is not an event: ${issue?.path.join('.') || 'body'} ${issue?.message ?? ''}`.trim(),
    );
  }
  return { event: envelope.data, fields, deadline: door.deadline };
}
