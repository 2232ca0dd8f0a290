/**
 * @module
 * `@questkit/express`: Express 4 and 5 handlers for questkit's three endpoints.
 * `verificationEndpoint` answers the platform's verification call through `@questkit/core`'s
 * verifier (`verificationErrors` keeps a body parser's failures on that path in the contract),
 * `connectEndpoint` serves the community side of the identity-connect redirect flow, and
 * `webhookEndpoint` receives the platform's webhook deliveries. Each only translates: every
 * decision is core's.
 */
export { type ConnectEndpointOptions, connectEndpoint } from './connect.js';
export {
  type VerificationEndpoint,
  type VerificationEndpointOptions,
  verificationEndpoint,
  verificationErrors,
} from './verification.js';
export { type WebhookEndpointOptions, webhookEndpoint } from './webhooks.js';
