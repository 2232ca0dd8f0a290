import type { DoorAnswer, DoorEndpoint, DoorRequest } from '../adapter/door.js';
import { beforeDeadline, frontDoor, TIMED_OUT } from '../front-door/index.js';
import type { MaybePromise } from '../maybe-promise.js';
import {
  type KnownWebhookEvent,
  KnownWebhookEventSchema,
  type WebhookEvent,
  type WebhookEventOf,
  WebhookEventSchema,
} from '../schemas/webhook-events.js';
import { WEBHOOK_EVENT_TYPES } from '../schemas/webhooks.js';
import { matchSecret, readSecrets } from '../secrets.js';
import { createMemoryDedupe, type WebhookDedupe } from './dedupe.js';

/** The handlers of {@link createWebhookReceiver}, by event type: each gets its typed event. */
export type WebhookHandlers = {
  [T in KnownWebhookEvent['type']]?: (event: WebhookEventOf<T>) => MaybePromise<void>;
};

/** What `onError` is told besides the error itself. Never carries the secret. */
export interface WebhookErrorInfo {
  /**
   * `handler_error` (it threw: answered 500), `late` (it settled after the deadline) or
   * `dedupe_error` (the dedupe store failed or did not answer in time: answered 500 before any
   * handler ran, or, when it failed to mark a handled event done, 200).
   */
  reason: 'handler_error' | 'late' | 'dedupe_error';
  eventId: string;
  eventType: string;
}

/** Options of {@link createWebhookReceiver}. */
export interface WebhookReceiverOptions {
  /** The webhook's secret; a list during a rotation. Compared in constant time. */
  secret: string | readonly string[];
  /** One handler per event type. */
  on: WebhookHandlers;
  /** Events of a type without a handler (a type added later, say); default: accepted and ignored. */
  onUnknown?: (event: WebhookEvent) => MaybePromise<void>;
  /** Handler errors and late results. Default: console.error. */
  onError?: (error: unknown, info: WebhookErrorInfo) => void;
  /** Budget from arrival to answer; default 4000, under the platform's 5 s. */
  timeoutMs?: number;
  /**
   * Where event ids are claimed and marked done; default `createMemoryDedupe` (one
   * instance). Several instances share one store, such as `createRedisDedupe`.
   */
  dedupe?: WebhookDedupe;
  /** Largest body accepted, in bytes; default 256 KiB. */
  maxBodyBytes?: number;
}

/** Default handler budget: under the platform's 5 s, leaving room for the network. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 4_000;
const DEFAULT_MAX_BODY_BYTES = 256 * 1024;
const HEADERS = Object.freeze({ 'content-type': 'application/json; charset=utf-8' });

/**
 * Receives the platform's webhook deliveries through the adapter door. It checks the webhook's
 * secret (the mock's convention puts it in the body's `secret` field; this is the one place that
 * reads it) in constant time, validates the event, claims its id in the dedupe store (retries,
 * replays and concurrent copies repeat it), runs the handler of its type under a deadline, and
 * answers: 200 handled (or already handled), 401 bad or missing secret, 400 malformed, 409 the
 * same event is being handled by another delivery, 500 the handler threw or was too slow or the
 * dedupe store failed, so the platform retries. An error's own message is never echoed.
 *
 * @example
 * const receiver = createWebhookReceiver({
 *   secret: process.env.WEBHOOK_SECRET!,
 *   on: {
 *     JOINED_COMMUNITY: async (event) => welcome(event.data.userId),
 *   },
 * });
 */
export function createWebhookReceiver(options: WebhookReceiverOptions): DoorEndpoint {
  const secrets = readSecrets(options.secret, '[@questkit/core] webhooks: secret');
  if (typeof options.on !== 'object' || options.on === null) {
    throw new TypeError(
      '[@questkit/core] webhooks: on must be an object of handlers by event type',
    );
  }
  for (const [type, handler] of Object.entries(options.on)) {
    if (
      !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type) ||
      typeof handler !== 'function'
    ) {
      throw new TypeError(
        `[@questkit/core] webhooks: on.${type} must be a function of a known event type (${WEBHOOK_EVENT_TYPES.join(', ')})`,
      );
    }
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs < 1 || timeoutMs > 60_000) {
    throw new TypeError('[@questkit/core] webhooks: timeoutMs must be a number from 1 to 60000');
  }
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const dedupe = options.dedupe ?? createMemoryDedupe();
  const onError =
    options.onError ??
    ((error: unknown, info: WebhookErrorInfo) =>
      console.error(
        `[@questkit/core] webhook ${info.eventType} ${info.eventId}: ${info.reason}`,
        error,
      ));
  const report = (error: unknown, info: WebhookErrorInfo) => {
    try {
      onError(error, info);
    } catch {
      // A broken error hook must not change the answer.
    }
  };

  const answer = (
    status: 200 | 400 | 401 | 409 | 500,
    message: string,
    close = false,
  ): DoorAnswer => ({
    status,
    headers: HEADERS,
    cookies: [],
    body: JSON.stringify({ message }),
    close,
  });

  const handle = async (request: DoorRequest): Promise<DoorAnswer> => {
    const door = frontDoor(request, timeoutMs);
    const { deadline } = door;
    if (door.method !== 'POST') {
      return answer(400, 'Webhook deliveries are POST requests.', door.close());
    }
    const read = await door.read(maxBodyBytes);
    if (!read.ok) {
      const close = door.close();
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
    // The secret first: nothing about the event is told to a sender without it.
    const { secret, ...rest } = (typeof body === 'object' && body !== null ? body : {}) as {
      secret?: unknown;
    };
    if (typeof secret !== 'string' || !matchSecret(secret, secrets)) {
      return answer(401, 'The webhook secret is missing or wrong.');
    }
    const envelope = WebhookEventSchema.safeParse(rest);
    if (!envelope.success) {
      const issue = envelope.error.issues[0];
      return answer(
        400,
        `The delivery is not an event: ${issue?.path.join('.') || 'body'} ${issue?.message ?? ''}`.trim(),
      );
    }
    const event = envelope.data;
    const info = { eventId: event.id, eventType: event.type } as const;
    // The id is claimed atomically before the handler runs, so that copies of one delivery, here
    // or on another instance, run it once. A failing or silent store is a 500: never a run
    // without the claim, never a 200 for an event not handled.
    const token = crypto.randomUUID();
    const claiming = Promise.resolve().then(() => dedupe.claim(event.id, token));
    let claim: Awaited<ReturnType<WebhookDedupe['claim']>> | typeof TIMED_OUT;
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
      const handler = options.on[event.type as KnownWebhookEvent['type']];
      if (!handler) return options.onUnknown?.(event);
      const typed = KnownWebhookEventSchema.safeParse(rest);
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
  };

  return {
    handle: (request) =>
      handle(request).catch((error: unknown) => {
        // A failing dedupe store or a bug: the platform retries, the member never sees it.
        report(error, { reason: 'handler_error', eventId: '', eventType: '' });
        return answer(500, 'The delivery could not be handled.');
      }),
  };
}

class InvalidEvent extends Error {}
