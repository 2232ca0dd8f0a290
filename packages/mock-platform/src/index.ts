/**
 * @module
 * `@questkit/mock-platform`: a stateful, faithful stand-in for the community platform's public API,
 * as a Web-standard fetch handler (in-process, no port) or a real server (`startMockServer`, CLI).
 */

// What users call: the platform and its server, the demo data, the clock, the store and its
// fixtures, the control routes' catalogue; and the types those name. Internals stay inside.
export type { ReceivedAnswer, SentRequest } from '@questkit/core/api';
export type { Principal } from './auth/principal.js';
export type { RateLimitOptions } from './auth/rate-limit.js';
export type { MemberClaims, MemberTokens } from './auth/tokens.js';
export { type Clock, createManualClock, type ManualClock, systemClock } from './clock.js';
export type { MockContext, MockHooks, MockSettings } from './context.js';
export {
  buildControlOpenApi,
  CONTROL_ROUTES,
  type ControlRoute,
  controlExample,
} from './control/catalog.js';
export { type GeneratedCredential, replacePublishedCredentials } from './demo-credentials.js';
export type { ApiFailure, ErrorBody, ErrorStatus, ValidationIssue } from './errors.js';
export { readFixtures, writeFixtures, writePrivateFile } from './fixtures-file.js';
export type { RouteResult } from './http/result.js';
export type { PublicRoute, RouteDefinition } from './http/route.js';
export { DEFAULT_RATE_LIMIT_PER_SECOND } from './limits.js';
export type { OpenApiDocument } from './openapi/document.js';
export { createMockPlatform, type MockPlatform, type MockPlatformOptions } from './platform.js';
export type { ReferralCodes } from './referral-codes.js';
export {
  DEFAULT_GENERATED_USERS,
  type SeedDemoOptions,
  type SeedSummary,
  seedDemo,
} from './seed/demo.js';
export { DEMO, generatedUserId } from './seed/demo-ids.js';
export type { RequestRecord } from './served-requests.js';
export { type MockServer, type MockServerOptions, startMockServer } from './server.js';
export * from './service/index.js';
export type { DecidedReview } from './service/reviews.js';
export { createMemoryStore } from './store/memory.js';
export type * from './store/records.js';
export type {
  ReviewEventRecord,
  ReviewerRecord,
  ReviewRecord,
  ReviewStore,
  ReviewTaskRecord,
} from './store/reviews.js';
export { StoreSnapshotSchema } from './store/snapshot.js';
export type * from './store/store.js';
