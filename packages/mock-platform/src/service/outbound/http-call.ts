// One outgoing POST of the service side (a verification call, a webhook delivery), observed as
// data: what came back, how long it took, or why nothing came. The deadline, the size limit and
// what an error means are decided by the conformance runner's `send`, the one helper both sides
// of questkit call endpoints with; the mock brings only its transport.
//
// node:http rather than fetch: Node 20's fetch makes a Request, an AbortSignal and a web stream
// per answer (bench/README.md has what that costs).

import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { send, type Transport } from '@questkit/conformance';
import type { ObservedAnswer } from '@questkit/core/api';

/** Options of `postJson`. */
export interface PostJsonOptions {
  headers: Record<string, string>;
  /** The JSON text to send. */
  body: string;
  /** Give up after this many ms. */
  timeoutMs: number;
  /** Read at most this many bytes of the answer's body; 0 reads none (default 64 KiB). */
  maxBodyBytes?: number;
}

/**
 * POSTs a JSON body and reports what happened; never throws. Redirects are not followed (a 3xx
 * is an answer like any other), and the answer must be complete, body included, within the time
 * limit: a status followed by a body that never ends is a timeout. Only http: and https: URLs.
 */
export function postJson(url: string, options: PostJsonOptions): Promise<ObservedAnswer> {
  return send(
    { method: 'POST', url, headers: options.headers, body: options.body },
    {
      timeoutMs: options.timeoutMs,
      maxBodyBytes: options.maxBodyBytes,
      transport: nodeTransport,
    },
  );
}

/** The transport over node:http(s): no redirect is followed, an abort destroys the request. */
const nodeTransport: Transport = (outgoing, signal) =>
  new Promise((resolve, reject) => {
    const target = new URL(outgoing.url);
    const body = outgoing.body ?? '';
    const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, {
      method: outgoing.method,
      headers: { ...outgoing.headers, 'content-length': String(Buffer.byteLength(body)) },
    });
    signal.addEventListener('abort', () => request.destroy(), { once: true });
    // Stays attached: an error after the answer (a reset mid-body) must not go unheard.
    request.on('error', reject);
    request.on('response', (response: IncomingMessage) => {
      // Errors of the body reach the reader through its iterator; this keeps a late one (after
      // `send` stopped reading) from being an uncaught 'error' event.
      response.on('error', () => {});
      resolve({
        status: response.statusCode ?? 0,
        header: (name) => {
          const value = response.headers[name];
          return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
        },
        body: response,
      });
    });
    request.end(body);
  });
