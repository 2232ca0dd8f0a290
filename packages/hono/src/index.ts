/**
 * @module
 * `@questkit/hono`: Hono handlers for questkit's three endpoints. `verificationEndpoint` answers
 * the platform's verification call, `connectEndpoint` serves the community side of the
 * identity-connect redirect flow, and `webhookEndpoint` receives the platform's webhook
 * deliveries. Each is a thin translation: every decision is `@questkit/core`'s.
 */
export { type ConnectEndpointOptions, connectEndpoint } from './connect.js';
export { type VerificationEndpointOptions, verificationEndpoint } from './verification.js';
export { type WebhookEndpointOptions, webhookEndpoint } from './webhooks.js';
