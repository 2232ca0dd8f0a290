import type { DoorAnswer, DoorRequest } from './door.js';
import { type NodeRequest, type NodeResponse, requestFromNode, writeNodeAnswer } from './node.js';
import { requestFromWeb, responseFromAnswer } from './web.js';

/** The two ways every endpoint is served without an adapter: a Web handler and a Node listener. */
export interface FrontEnds<Req> {
  /** The endpoint as a Web handler: `(Request) => Promise<Response>` (Next.js, Workers, Bun, Deno). */
  fetch(request: Req & Request): Promise<Response>;
  /** The endpoint as a Node listener: `http.createServer(endpoint.node)`. Never rejects. */
  node(request: Req & NodeRequest, response: NodeResponse): Promise<void>;
}

/**
 * `fetch` and `node` for an endpoint's `handle`; the request itself is the app's `ctx`.
 * `onWriteError` hears of an answer that could not be written (the client left).
 */
export function frontEnds<Req>(
  handle: (request: DoorRequest, ctx: Req) => Promise<DoorAnswer>,
  onWriteError: (error: unknown) => void,
): FrontEnds<Req> {
  return {
    async fetch(request) {
      return responseFromAnswer(await handle(requestFromWeb(request), request));
    },
    async node(request, response) {
      const answer = await handle(requestFromNode(request), request);
      try {
        writeNodeAnswer(response, answer);
      } catch (error) {
        onWriteError(error);
      }
    },
  };
}
