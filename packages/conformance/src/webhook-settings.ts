import { WEBHOOK_TIMEOUT_MS } from '@questkit/core/api';
import { fetchTransport, type Transport } from './send.js';
import type { ProgressEvent } from './types.js';

/** Options of `checkWebhookReceiver`. */
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

/** The options of a webhook check, validated, with defaults filled in. */
export interface WebhookSettings {
  url: string;
  secret: string;
  showSecrets: boolean;
  timeoutMs: number;
  transport: Transport;
  signal?: AbortSignal;
}

/** Validates the options; throws a TypeError naming the first invalid one. */
export function resolveWebhookSettings(options: WebhookCheckOptions): WebhookSettings {
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
  return {
    url: options.url,
    secret: options.secret,
    showSecrets: options.showSecrets === true,
    timeoutMs,
    transport: fetchTransport(options.fetch),
    ...(options.signal ? { signal: options.signal } : {}),
  };
}
