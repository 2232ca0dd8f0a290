/**
 * @module
 * `@questkit/hono`: Hono handlers for a questkit community endpoint. `verificationEndpoint`
 * answers the platform's verification call through `@questkit/core`'s verifier, and
 * `connectEndpoint` serves the community side of the identity-connect redirect flow. Both are a
 * thin translation: every decision is core's.
 */
export { type ConnectEndpointOptions, connectEndpoint } from './connect.js';
export { type VerificationEndpointOptions, verificationEndpoint } from './verification.js';
export { type WebhookEndpointOptions, webhookEndpoint } from './webhooks.js';
