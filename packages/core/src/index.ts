/**
 * @module
 * `@questkit/core`: everything a community quest verification endpoint needs, on Web standards
 * only (`Request`, `Response`, `URL`, `TextEncoder`), so it runs on Node 20+, Bun, Deno and edge
 * runtimes alike.
 */
export * from './api-key.js';
export {
  type BodySource,
  type EmitterBody,
  type PendingBody,
  type ReadBodyResult,
  readBody,
} from './body.js';
export * from './checks.js';
export { type ParsedClaim, parseClaimBytes, parseClaimText, validateClaim } from './claim.js';
export * from './connect/index.js';
export * from './connect-flow.js';
export { getHeader, type HeaderSource } from './headers.js';
export { MAX_MESSAGE_LENGTH, normalizeMessage } from './messages.js';
export * from './node-listener.js';
export * from './reasons.js';
export * from './results.js';
export * from './schemas/index.js';
export * from './verifier.js';
