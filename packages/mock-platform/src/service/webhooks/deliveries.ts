import { deliveryBody, explainRefusedDelivery, WEBHOOK_USER_AGENT } from '@questkit/core/api';
import type { MockContext } from '../../context.js';
import { randomId } from '../../ids.js';
import type {
  CommunityRecord,
  DeliveryRecord,
  DeliveryStatus,
  WebhookRecord,
} from '../../store/records.js';
import type { Store } from '../../store/store.js';
import type { BackgroundWork } from '../background-work.js';
import type { Outbound } from '../outbound/outbound.js';
import type { Slots } from '../outbound/slots.js';
import {
  deliveryFailure,
  WEBHOOK_MAX_ANSWER_BYTES,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_TIMEOUT_MS,
} from './rules.js';
import type { Scheduler } from './scheduler.js';

// Webhook deliveries: one record per (event, webhook), tried at once, then retried on the
// scheduler by the retry schedule (rules.ts) until a try succeeds or the last retry fails.
//
// Statuses: pending (not tried yet) -> success | failed (a retry is planned at retryAt) |
// exhausted (the last try failed). A failed delivery goes back to success or failed or exhausted
// on its next try. The webhook counters count records by status: success = records in success,
// failed = records in failed, exhausted = records in exhausted (pending is not counted). Every
// status change moves one unit from one counter to the other in the same synchronous step, so
// records and counters always agree.

/** Delivery settings of webhooks; the defaults are the platform's documented rules. */
export interface WebhookDeliveryOptions {
  /**
   * The waits between tries, in ms: entry n is the wait after failed try n. Its length is the
   * number of retries (default {@link WEBHOOK_RETRY_DELAYS_MS}: 15 retries, from 10 minutes).
   */
  retryDelaysMs?: readonly number[];
  /** A try succeeds on exactly 200, with a body of at most 5,000 bytes, within this many ms (default 5000). */
  timeoutMs?: number;
  /** Most deliveries in flight at once (default 64). */
  concurrency?: number;
}

/** Resolved delivery settings. */
export interface WebhookDeliverySettings {
  retryDelaysMs: readonly number[];
  /** Tries before a delivery is `exhausted`, the first included: retries + 1. */
  maxTries: number;
  timeoutMs: number;
  concurrency: number;
}

/** Deliveries in flight at once. */
export const DEFAULT_WEBHOOK_CONCURRENCY = 64;

/**
 * An event of a community, as delivered (the body adds the webhook's `secret`): the envelope
 * real receivers read (platform-docs-notes.md §3), `data` built by event-data.ts.
 */
export interface WebhookEvent {
  /** The event id: the same for every webhook it is delivered to, and on a replay. */
  id: string;
  type: string;
  /** When the event happened, in milliseconds since the epoch. */
  time: number;
  data: Record<string, unknown>;
}

/** One try of a delivery. */
export interface DeliveryAttempt {
  /** 1 for the first try. */
  try: number;
  at: string;
  /** The status received, when an answer came in time. */
  status: number | null;
  /** Why the try failed without a status (timeout, connection refused). */
  error: string | null;
  durationMs: number;
  ok: boolean;
  /** The start of the receiver's answer body (the first `ATTEMPT_BODY_BYTES` (512) bytes); null without an answer. */
  body: string | null;
  /**
   * When the receiver refused the delivery (400, 401, 403, 415, 422): how deliveries are made (no
   * signature header, the secret in the body, the event under `data`), as `questkit
   * check-webhook` says it; null otherwise.
   */
  explanation: string | null;
}

/** When a delivery the mock's outbound gate refused goes again (platform clock). */
export const NOT_SENT_RETRY_MS = 60_000;

/** Bytes of a receiver's answer kept per try: enough to read "Already handled." or an error. */
export const ATTEMPT_BODY_BYTES = 512;

/** Deliveries created by an event or a replay, and their first tries. */
export interface Dispatched {
  event: WebhookEvent;
  /** The records as created (`pending`). */
  deliveries: DeliveryRecord[];
  /** The records after their first try. */
  settled: Promise<DeliveryRecord[]>;
}

/** The delivery engine. */
export interface Deliveries {
  /** The settings in force. */
  readonly settings: WebhookDeliverySettings;
  /** Delivers an event to every active webhook of the community subscribed to its type. */
  emit(community: CommunityRecord, type: string, data: Record<string, unknown>): Dispatched;
  /** A new delivery of a record's event to the same webhook (active or not); undefined when unknown. */
  replay(deliveryId: string): Dispatched | undefined;
  /** The tries of a delivery this platform made, oldest first. */
  attempts(deliveryId: string): readonly DeliveryAttempt[];
}

/** Counters of a webhook as its records say they should be. */
export function countDeliveries(
  store: Store,
  webhookId: string,
): Pick<WebhookRecord, 'success' | 'failed' | 'exhausted'> {
  const counts = { success: 0, failed: 0, exhausted: 0 };
  for (const record of store.deliveries.listByWebhook(webhookId)) {
    if (record.status !== 'pending') counts[record.status] += 1;
  }
  return counts;
}

// Attempt logs are kept for this many deliveries; the oldest are forgotten first.
const MAX_LOGGED_DELIVERIES = 10_000;

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new TypeError(`[@questkit/mock-platform] webhooks.${name} must be a positive integer`);
  }
  return value;
}

/** Validates the delivery settings (a TypeError at start-up) and fills the defaults. */
export function webhookSettings(options: WebhookDeliveryOptions = {}): WebhookDeliverySettings {
  const delays = options.retryDelaysMs ?? WEBHOOK_RETRY_DELAYS_MS;
  if (
    !Array.isArray(delays) ||
    delays.length > 100 ||
    !delays.every((ms) => Number.isFinite(ms) && ms >= 0)
  ) {
    throw new TypeError(
      '[@questkit/mock-platform] webhooks.retryDelaysMs must be a list of at most 100 non-negative numbers',
    );
  }
  const retryDelaysMs = Object.freeze([...delays]);
  return {
    retryDelaysMs,
    maxTries: retryDelaysMs.length + 1,
    timeoutMs: positiveInteger('timeoutMs', options.timeoutMs, WEBHOOK_TIMEOUT_MS),
    concurrency: positiveInteger('concurrency', options.concurrency, DEFAULT_WEBHOOK_CONCURRENCY),
  };
}

/**
 * The delivery engine over the store, the scheduler and the delivery slots
 * (`webhooks.concurrency`). First tries start at once (tracked, so `idle()` can wait for them);
 * retries are scheduler jobs.
 *
 * @example
 * const deliveries = createDeliveries(context, scheduler, createSlots(64), outbound, createBackgroundWork(), {});
 * const { settled } = deliveries.emit(community, 'JOINED_COMMUNITY', memberEventData(community, user));
 * await settled;
 */
export function createDeliveries(
  context: MockContext,
  scheduler: Scheduler,
  slots: Slots,
  outbound: Outbound,
  tracker: BackgroundWork,
  options: WebhookDeliveryOptions = {},
): Deliveries {
  const settings = webhookSettings(options);
  const { store, clock } = context;
  const logs = new Map<string, DeliveryAttempt[]>();
  const inFlight = new Set<string>();

  const log = (deliveryId: string, attempt: DeliveryAttempt) => {
    let list = logs.get(deliveryId);
    if (!list) {
      list = [];
      logs.set(deliveryId, list);
      if (logs.size > MAX_LOGGED_DELIVERIES) {
        const oldest = logs.keys().next().value;
        if (oldest !== undefined) logs.delete(oldest);
      }
    }
    list.push(attempt);
  };

  const moveCounter = (webhookId: string, from: DeliveryStatus, to: DeliveryStatus) => {
    if (from === to) return;
    const webhook = store.webhooks.get(webhookId);
    if (!webhook) return;
    const patch: Partial<Pick<WebhookRecord, 'success' | 'failed' | 'exhausted'>> = {};
    if (from !== 'pending') patch[from] = webhook[from] - 1;
    if (to !== 'pending') patch[to] = webhook[to] + 1;
    store.webhooks.update(webhookId, patch);
  };

  const attempt = async (deliveryId: string): Promise<void> => {
    const before = store.deliveries.get(deliveryId);
    const webhook = before && store.webhooks.get(before.webhookId);
    if (!before || !webhook || inFlight.has(deliveryId)) return;
    if (before.status === 'success' || before.status === 'exhausted') return;
    inFlight.add(deliveryId);
    try {
      const body = deliveryBody(before.payload, webhook.secret);
      const answer = await slots.run(() =>
        outbound.post('delivery', webhook.uri, {
          headers: { 'content-type': 'application/json', 'user-agent': WEBHOOK_USER_AGENT },
          body,
          timeoutMs: settings.timeoutMs,
          // One byte more than allowed is enough to know the body is too big.
          maxBodyBytes: WEBHOOK_MAX_ANSWER_BYTES,
        }),
      );
      // Re-read after the call: the webhook or the record may have been deleted meanwhile.
      const current = store.deliveries.get(deliveryId);
      if (!current || !store.webhooks.get(current.webhookId)) return;
      if (answer.refused) return notSent(current, answer.error ?? 'not sent');
      const failure = deliveryFailure(answer);
      const ok = failure === null;
      const tries = current.tries + 1;
      const now = clock.now();
      const status: DeliveryStatus = ok
        ? 'success'
        : tries >= settings.maxTries
          ? 'exhausted'
          : 'failed';
      const retryAt =
        status === 'failed'
          ? new Date(now.getTime() + (settings.retryDelaysMs[tries - 1] ?? 0))
          : now;
      store.deliveries.put({
        ...current,
        status,
        tries,
        updatedAt: now.toISOString(),
        retryAt: retryAt.toISOString(),
      });
      moveCounter(current.webhookId, current.status, status);
      log(deliveryId, {
        try: tries,
        at: now.toISOString(),
        status: answer.status ?? null,
        error: failure,
        durationMs: Math.round(answer.elapsedMs),
        ok,
        body: answer.body === undefined ? null : answer.body.slice(0, ATTEMPT_BODY_BYTES),
        explanation: explainRefusedDelivery(answer),
      });
      if (status === 'failed') {
        scheduler.schedule(deliveryId, retryAt.getTime(), () => attempt(deliveryId));
      }
    } finally {
      inFlight.delete(deliveryId);
    }
  };

  // The mock's own gate refused the call: the receiver did nothing wrong, so no try is counted;
  // the refusal is logged and the same try goes again a minute later.
  const notSent = (current: DeliveryRecord, error: string) => {
    const now = clock.now();
    const retryAt = new Date(now.getTime() + NOT_SENT_RETRY_MS);
    store.deliveries.put({
      ...current,
      updatedAt: now.toISOString(),
      retryAt: retryAt.toISOString(),
    });
    log(current.id, {
      try: current.tries + 1,
      at: now.toISOString(),
      status: null,
      error,
      durationMs: 0,
      ok: false,
      body: null,
      explanation: null,
    });
    scheduler.schedule(current.id, retryAt.getTime(), () => attempt(current.id));
  };

  const dispatch = (event: WebhookEvent, webhooks: readonly WebhookRecord[]): Dispatched => {
    const now = clock.now().toISOString();
    const deliveries = webhooks.map((webhook) => {
      const record: DeliveryRecord = {
        id: randomId(),
        webhookId: webhook.id,
        communityId: webhook.communityId,
        status: 'pending',
        eventType: event.type,
        tries: 0,
        payload: { ...event },
        createdAt: now,
        updatedAt: now,
        retryAt: now,
      };
      store.deliveries.put(record);
      return record;
    });
    const settled = tracker.track(
      Promise.all(
        deliveries.map(async (record) => {
          await attempt(record.id);
          return store.deliveries.get(record.id) ?? record;
        }),
      ),
    );
    return { event, deliveries, settled };
  };

  return {
    settings,
    emit(community, type, data) {
      const event: WebhookEvent = { id: randomId(), type, time: clock.now().getTime(), data };
      const subscribed = store.webhooks
        .listByCommunity(community.id)
        .filter((webhook) => webhook.active && webhook.events.includes(type));
      return dispatch(event, subscribed);
    },
    replay(deliveryId) {
      const record = store.deliveries.get(deliveryId);
      const webhook = record && store.webhooks.get(record.webhookId);
      if (!record || !webhook) return undefined;
      const payload = record.payload as Partial<WebhookEvent>;
      const event: WebhookEvent = {
        id: typeof payload.id === 'string' ? payload.id : randomId(),
        type: record.eventType,
        time: typeof payload.time === 'number' ? payload.time : Date.parse(record.createdAt),
        data:
          typeof payload.data === 'object' && payload.data !== null
            ? (payload.data as Record<string, unknown>)
            : {},
      };
      return dispatch(event, [webhook]);
    },
    attempts: (deliveryId) => logs.get(deliveryId) ?? [],
  };
}
