/**
 * @module
 * Identity connect: HMAC-SHA256 signed URLs for both sides of the redirect flow, a signed state
 * token that carries the flow across the community's own login, and the community side's whole
 * flow (`createConnectFlow`).
 */
export type { ConnectFailure } from './answers.js';
export { buildConnectCallback } from './callback.js';
export {
  type ConnectFlow,
  type ConnectFlowOptions,
  type ConnectLink,
  createConnectFlow,
} from './flow.js';
export { type ConfirmView, escapeHtml } from './pages.js';
export { publicRequestUrl } from './public-url.js';
export {
  type CallbackParam,
  type ConnectRedirect,
  type ConnectRedirectFailure,
  type CreateConnectRedirectOptions,
  createConnectRedirect,
  type ReadConnectRedirectOptions,
  readConnectRedirect,
} from './redirect.js';
export { signUrl } from './sign.js';
export {
  type ConnectState,
  type ConnectStateOptions,
  type ConnectStateSealer,
  createConnectState,
  type OpenedConnectState,
} from './state.js';
export { type SignedUrlFailure, type VerifiedUrl, verifySignedUrl } from './verify.js';
