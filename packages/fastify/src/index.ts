/**
 * @module
 * `@questkit/fastify`: the questkit verification endpoint and identity-connect endpoint as
 * encapsulated Fastify plugins, a thin translation over `@questkit/core`.
 *
 * @example
 * const app = Fastify();
 * app.register(verificationEndpoint, { path: '/verify', apiKey: process.env.QUEST_API_KEY!, verify });
 * app.register(connectEndpoint, { path: '/connect', secret: process.env.CONNECT_SECRET!, getIdentifier });
 */
export { type ConnectEndpointOptions, connectEndpoint } from './connect.js';
export { type VerificationEndpointOptions, verificationEndpoint } from './verification.js';
export { type WebhookEndpointOptions, webhookEndpoint } from './webhooks.js';
