/**
 * @module
 * `@questkit/conformance`: tells whether a quest verification endpoint, written with questkit or
 * not, will pass the platform's automatic checks, and why not. It runs a battery of probes
 * ({@link PROBES}) over HTTP with global `fetch` and judges every answer with core's
 * `checkVerificationAnswer`, the same code the mock platform uses. Runs on any runtime with
 * `fetch`; the reporters return strings and do no I/O.
 */

// The "did you mean" of the command line, kept where every package can reach it.
export { closest } from '@questkit/core';
export {
  type AssertConformantOptions,
  assertConformant,
  ConformanceError,
  type ConformanceTarget,
} from './assert.js';
export {
  type BuiltBody,
  buildBody,
  buildClaim,
  DEFAULT_MEMBER,
  PADDING_FIELD,
  SAMPLE_ACCOUNTS,
} from './claim-body.js';
export { CONNECT_CHECKS, type ConnectCheckId, DEFAULT_CONNECT_CALLBACK } from './connect.js';
export { API_KEY_ENV, toCurl } from './curl.js';
export { endpointText, isHtmlPage } from './endpoint-text.js';
export { readsAsKeyRefusal } from './key-refusal.js';
export {
  CLAIM_PROBE_ID,
  OVERSIZE_BYTES,
  PROBES,
  type Probe,
  type ProbeBody,
  type ProbeExpectation,
  type ProbeRequest,
} from './probes.js';
export { formatHuman, formatProgress, type HumanFormatOptions } from './reporters/human.js';
export { formatJson } from './reporters/json.js';
export { formatJunit } from './reporters/junit.js';
export {
  formatWebhookHuman,
  formatWebhookJson,
  formatWebhookJunit,
} from './reporters/webhook.js';
export {
  DEFAULT_BURST,
  DEFAULT_CONCURRENCY,
  DEFAULT_SAMPLES,
  runConformance,
  WRONG_API_KEY,
} from './run.js';
export { listSchemaFields, type SchemaField } from './schema-fields.js';
export {
  DEFAULT_MAX_ANSWER_BYTES,
  describeNetworkError,
  fetchTransport,
  type OutgoingRequest,
  type SendOptions,
  STOPPED,
  send,
  type Transport,
  type TransportAnswer,
} from './send.js';
export * from './types.js';
export {
  checkWebhookReceiver,
  WEBHOOK_CHECKS,
  WEBHOOK_SECRET_ENV,
  type WebhookCheckOptions,
  type WebhookReport,
  type WebhookSummary,
  WRONG_WEBHOOK_SECRET,
} from './webhook.js';
export {
  deliveryRequest,
  type SampleIds,
  sampleEvent,
  sampleEvents,
} from './webhook-deliveries.js';
