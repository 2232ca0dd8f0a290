import type { MaybePromise } from '../maybe-promise.js';
import { readFunctionOption, readNumberOption } from '../options.js';
import { WEBHOOK_EVENT_TYPES } from '../schemas/webhook-constants.js';
import type { KnownWebhookEvent, WebhookEvent, WebhookEventOf } from '../schemas/webhook-events.js';
import { readSecrets } from '../secrets.js';
import { createMemoryDedupe, type WebhookDedupe } from './dedupe.js';

/** The handlers of `createWebhookReceiver`, by event type: each gets its typed event. */
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

/** Options of `createWebhookReceiver`. */
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
   * Where event ids are claimed and marked done; default `createMemoryDedupe`: this process's
   * memory, right for one long-lived instance only. Workers, serverless functions and several
   * replicas each have their own memory: they share one store, such as `createRedisDedupe`.
   */
  dedupe?: WebhookDedupe;
  /** Largest body accepted, in bytes; default 256 KiB. */
  maxBodyBytes?: number;
}

/** Default handler budget: under the platform's 5 s, leaving room for the network. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 4_000;
const DEFAULT_MAX_BODY_BYTES = 256 * 1024;

/** The receiver's options, checked once at start-up, with their defaults. */
export interface ReceiverConfig {
  secrets: readonly string[];
  on: WebhookHandlers;
  onUnknown: WebhookReceiverOptions['onUnknown'];
  timeoutMs: number;
  maxBodyBytes: number;
  dedupe: WebhookDedupe;
  /** Tells `onError`; a hook that throws never changes the answer. */
  report: (error: unknown, info: WebhookErrorInfo) => void;
}

/** Reads the receiver's options; a wrong one is a TypeError that names it, never its value. */
export function readReceiverOptions(options: WebhookReceiverOptions): ReceiverConfig {
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
  const timeoutMs = readNumberOption(
    'webhooks: timeoutMs',
    options.timeoutMs,
    DEFAULT_WEBHOOK_TIMEOUT_MS,
    { min: 1, max: 60_000 },
  );
  const maxBodyBytes = readNumberOption(
    'webhooks: maxBodyBytes',
    options.maxBodyBytes,
    DEFAULT_MAX_BODY_BYTES,
    { min: 1, max: 2 ** 30, integer: true },
  );
  const onUnknown = readFunctionOption('webhooks: onUnknown', options.onUnknown);
  const onError =
    readFunctionOption('webhooks: onError', options.onError) ??
    ((error: unknown, info: WebhookErrorInfo) =>
      console.error(
        `[@questkit/core] webhook ${info.eventType} ${info.eventId}: ${info.reason}`,
        error,
      ));
  return {
    secrets,
    on: options.on,
    onUnknown,
    timeoutMs,
    maxBodyBytes,
    dedupe: options.dedupe ?? createMemoryDedupe(),
    report: (error, info) => {
      try {
        onError(error, info);
      } catch {
        // A broken error hook must not change the answer.
      }
    },
  };
}
