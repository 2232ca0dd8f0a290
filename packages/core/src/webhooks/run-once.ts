import type { DoorAnswer } from '../adapter/door.js';
import { beforeDeadline, TIMED_OUT } from '../front-door/index.js';
import type { MaybePromise } from '../maybe-promise.js';
import { type KnownWebhookEvent, KnownWebhookEventSchema } from '../schemas/webhook-events.js';
import { webhookAnswer as answer } from './answer.js';
import type { DedupeClaim } from './dedupe.js';
import type { Delivery } from './delivery.js';
import type { ReceiverConfig } from './options.js';

/**
 * Runs the event's handler once across every copy of the delivery: the id is claimed atomically
 * before the handler runs, so that copies here or on another instance run it once, then marked
 * done when it succeeds or released when it fails, so that the platform's retry runs it. A
 * failing or silent store is a 500: never a run without the claim, never a 200 for an event not
 * handled.
 */
export async function runOnce(
  config: ReceiverConfig,
  { event, fields, deadline }: Delivery,
): Promise<DoorAnswer> {
  const { dedupe, report } = config;
  const info = { eventId: event.id, eventType: event.type } as const;
  const token = crypto.randomUUID();
  const claiming = Promise.resolve().then(() => dedupe.claim(event.id, token));
  let claim: DedupeClaim | typeof TIMED_OUT;
  try {
    claim = await beforeDeadline(claiming, deadline);
  } catch (error) {
    report(error, { ...info, reason: 'dedupe_error' });
    return answer(500, 'The delivery could not be handled.');
  }
  if (claim === TIMED_OUT) {
    // A claim that lands after this answer is given back, so that the retry can run.
    claiming
      .then((late) => (late === 'claimed' ? dedupe.release(event.id, token) : undefined))
      .catch(() => {});
    report(new Error('[@questkit/core] webhook dedupe store did not answer in time'), {
      ...info,
      reason: 'dedupe_error',
    });
    return answer(500, 'The delivery could not be handled.');
  }
  if (claim === 'done') return answer(200, 'Already handled.');
  if (claim === 'busy') {
    return answer(409, 'The event is being handled by another delivery; retry later.');
  }
  const finish = async (outcome: 'done' | 'release') => {
    try {
      await dedupe[outcome](event.id, token);
    } catch (error) {
      report(error, { ...info, reason: 'dedupe_error' });
    }
  };

  const run = async (): Promise<void> => {
    const handler = config.on[event.type as KnownWebhookEvent['type']];
    if (!handler) return config.onUnknown?.(event);
    const typed = KnownWebhookEventSchema.safeParse(fields);
    if (!typed.success) throw new InvalidEvent(typed.error.issues[0]?.path.join('.') ?? 'data');
    return (handler as (event: KnownWebhookEvent) => MaybePromise<void>)(typed.data);
  };
  const settled = run();
  let result: unknown;
  try {
    result = await beforeDeadline(settled, deadline);
  } catch (error) {
    // Released: the platform's retry runs the handler again.
    await finish('release');
    if (error instanceof InvalidEvent)
      return answer(400, `The ${event.type} event is malformed: ${error.message}.`);
    report(error, { ...info, reason: 'handler_error' });
    return answer(500, 'The delivery could not be handled.');
  }
  if (result === TIMED_OUT) {
    // One answer only: the late result is reported, never written. The claim holds until the
    // handler settles (then done or released), so a retry meanwhile never runs it twice.
    settled.then(
      () => {
        report(new Error('[@questkit/core] webhook handler settled after the deadline'), {
          ...info,
          reason: 'late',
        });
        return finish('done');
      },
      (error: unknown) => {
        report(error, { ...info, reason: 'late' });
        return finish('release');
      },
    );
    return answer(500, 'The delivery took too long to handle.');
  }
  // Handled: 200 even when the store fails to record it (reported), since a 500 would make the
  // platform's retry run the handler again once the claim expires.
  await finish('done');
  return answer(200, 'Handled.');
}

class InvalidEvent extends Error {}
