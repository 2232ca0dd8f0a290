import { WEBHOOK_MAX_ANSWER_BYTES } from '@questkit/core/api';
import type { Exchange } from './exchange.js';
import { STOPPED, send } from './send.js';
import { deliveryRequest } from './webhook-deliveries.js';
import type { PlannedDelivery } from './webhook-plan.js';
import type { WebhookSettings } from './webhook-settings.js';

/** A delivery once sent: its exchange, or why it was not sent. */
export interface DeliverySent {
  planned: PlannedDelivery;
  exchange?: Exchange;
  /** Why it was not sent: the run was stopped, or the receiver is unreachable. */
  cut?: string;
  durationMs: number;
}

/**
 * Sends the deliveries one after another and hands each to `done` as it ends. When the first
 * gets no answer at all (not a timeout), the rest are cut; the reason is returned.
 */
export async function sendDeliveries(
  plan: readonly PlannedDelivery[],
  settings: WebhookSettings,
  done: (sent: DeliverySent) => void,
): Promise<{ unreachable?: string }> {
  let unreachable: string | undefined;
  let ended = 0;
  const end = (sent: DeliverySent) => {
    ended += 1;
    done(sent);
  };
  for (const planned of plan) {
    const stopped = settings.signal?.aborted ? STOPPED : undefined;
    const cut = stopped ?? (unreachable !== undefined ? 'the receiver is unreachable' : undefined);
    if (cut !== undefined) {
      end({ planned, cut, durationMs: 0 });
      continue;
    }
    const request = deliveryRequest(settings.url, planned.event, planned.secret);
    const begun = performance.now();
    const answer = await send(request, {
      timeoutMs: settings.timeoutMs,
      // One byte over the limit is enough to know the body is too big.
      maxBodyBytes: WEBHOOK_MAX_ANSWER_BYTES,
      transport: settings.transport,
      ...(settings.signal ? { signal: settings.signal } : {}),
    });
    if (answer.error === STOPPED) {
      end({ planned, cut: STOPPED, durationMs: 0 });
      continue;
    }
    if (ended === 0 && answer.status === undefined && !answer.timedOut) {
      unreachable = answer.error ?? 'the request failed';
    }
    end({
      planned,
      exchange: { request, answer },
      durationMs: Math.round(performance.now() - begun),
    });
  }
  return unreachable !== undefined ? { unreachable } : {};
}
