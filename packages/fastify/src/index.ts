/**
 * @module
 * `@questkit/fastify`: questkit's three endpoints as encapsulated Fastify plugins, a thin
 * translation over `@questkit/core`: `verificationEndpoint` answers the platform's verification
 * call, `connectEndpoint` serves the community side of the identity-connect redirect flow, and
 * `webhookEndpoint` receives the platform's webhook deliveries.
 *
 * @example
 * const app = Fastify();
 * app.register(verificationEndpoint, { path: '/verify', apiKey: process.env.QUEST_API_KEY!, verify });
 * app.register(connectEndpoint, { path: '/connect', secret: process.env.CONNECT_SECRET!, getIdentifier });
 * app.register(webhookEndpoint, { path: '/webhooks', secret: process.env.WEBHOOK_SECRET!, on });
 */
export { type ConnectEndpointOptions, connectEndpoint } from './connect.js';
export { type VerificationEndpointOptions, verificationEndpoint } from './verification.js';
export { type WebhookEndpointOptions, webhookEndpoint } from './webhooks.js';
