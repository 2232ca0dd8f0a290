export { createMemoryDedupe, type WebhookDedupe } from './dedupe.js';
export {
  createWebhookReceiver,
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  type WebhookErrorInfo,
  type WebhookHandlers,
  type WebhookReceiverOptions,
} from './receiver.js';
