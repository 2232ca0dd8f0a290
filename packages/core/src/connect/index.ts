/**
 * @module
 * Identity-connect signing: HMAC-SHA256 signed URLs for both sides of the redirect flow, and a
 * signed state token that carries the flow across the community's own login.
 */
export { buildConnectCallback } from './callback.js';
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
