/**
 * @module
 * `@questkit/mock-platform`: a stateful, faithful stand-in for the community platform's public API,
 * as a Web-standard fetch handler (in-process, no port) or a real server (`startMockServer`, CLI).
 */

export { ConnectRemovalQuerySchema } from '@questkit/core/api';
export { ROUTE_ACCESS, type RouteAccess } from './auth/authorize.js';
export { type Principal, principalLabel } from './auth/principal.js';
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
export {
  type GeneratedCredential,
  PUBLISHED_CREDENTIALS,
  replacePublishedCredentials,
} from './demo-credentials.js';
export {
  type ApiFailure,
  apiError,
  ERROR_STATUSES,
  type ErrorBody,
  ErrorBodySchema,
  type ErrorStatus,
  type ValidationIssue,
} from './errors.js';
export { readFixtures, writeFixtures, writePrivateFile } from './fixtures-file.js';
export { McpClientSchema } from './http/pipeline.js';
export { empty, ok, type RouteResult } from './http/result.js';
export {
  bindRoute,
  type PublicRoute,
  type RouteDefinition,
  type RouteHandler,
  SVC_HEADERS,
} from './http/route.js';
export * from './limits.js';
export { renderDocsPage } from './openapi/docs-page.js';
export {
  buildOpenApiDocument,
  type OpenApiDocument,
  type OpenApiOptions,
} from './openapi/document.js';
export { createMockPlatform, type MockPlatform, type MockPlatformOptions } from './platform.js';
export type { ReferralCodes } from './referral-codes.js';
export { PUBLIC_PREFIX, PUBLIC_ROUTES } from './routes/index.js';
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
export * from './store/records.js';
export type {
  ReviewEventRecord,
  ReviewerRecord,
  ReviewRecord,
  ReviewStore,
  ReviewTaskRecord,
} from './store/reviews.js';
export { parseSnapshot, StoreSnapshotSchema } from './store/snapshot.js';
export * from './store/store.js';
