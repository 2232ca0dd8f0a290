/**
 * @module
 * `@questkit/core/adapter`: what adapter authors need and app authors do not. Every adapter
 * reaches core's endpoints (verification, webhooks, connect) through this one door: it turns its
 * framework's request into a {@link DoorRequest}, calls the endpoint's `handle`, and writes the
 * {@link DoorAnswer} back. The adapter decides nothing, not even whether to close the connection.
 *
 * @example
 * // A whole adapter for a framework with Web `Request`/`Response`:
 * const endpoint = createVerifier(options);
 * const handler = async (request: Request) =>
 *   responseFromAnswer(await endpoint.handle(requestFromWeb(request), request));
 */

export { DRAIN_BYTES, DRAIN_MS, drainBody } from '../front-door/drain.js';
export type { DoorAnswer, DoorBody, DoorEndpoint, DoorRequest } from './door.js';
export {
  type NodeRequest,
  type NodeResponse,
  nodeHeader,
  requestFromNode,
  writeNodeAnswer,
} from './node.js';
export { requestFromWeb, responseFromAnswer } from './web.js';
