/**
 * @module
 * `@questkit/core`: everything a community quest verification endpoint needs, on Web standards
 * only (`Request`, `Response`, `URL`, `TextEncoder`), so it runs on Node 20+, Bun, Deno and edge
 * runtimes alike. What only adapter authors need (the door every adapter goes through) lives
 * under `@questkit/core/adapter`.
 */
export * from './api-key.js';
export * from './checks.js';
export * from './connect/index.js';
export { MAX_MESSAGE_LENGTH, normalizeMessage } from './messages.js';
export * from './reasons.js';
export * from './results.js';
export * from './schemas/index.js';
export * from './verifier/index.js';
export * from './webhooks/index.js';
