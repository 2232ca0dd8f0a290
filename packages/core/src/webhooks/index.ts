export {
  createMemoryDedupe,
  type DedupeClaim,
  type DedupeLifetimes,
  type MemoryDedupeOptions,
  type WebhookDedupe,
} from './dedupe.js';
export {
  createWebhookReceiver,
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  type WebhookErrorInfo,
  type WebhookHandlers,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from './receiver.js';
export {
  createRedisDedupe,
  type RedisDedupeClient,
  type RedisDedupeOptions,
} from './redis-dedupe.js';
