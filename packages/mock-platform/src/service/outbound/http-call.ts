// One outgoing POST of the service side (a verification call, a webhook delivery), described as
// data: what came back, how long it took, or why nothing came. Durations are real time
// (`performance.now()`), not the platform clock: a manual clock must not make a slow endpoint fast.
//
// node:http rather than fetch: a claim's call through Node 20's fetch (a Request, an AbortSignal
// and a web stream per answer) was 14 % of the mock's CPU per claim in a profile; the same call
// on node:http costs a fraction of it (see the README's Scale section for the figures).

import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** What one outgoing POST produced. */
export interface HttpAttempt {
  /** The status, when a complete answer came in time. */
  status?: number;
  /** The `content-type` header of the answer. */
  contentType?: string | null;
  /** The body as text (up to the size limit; see `truncated`). */
  body?: string;
  /** true when the body was longer than the limit and was cut. */
  truncated?: boolean;
  /** Time from sending to the end of the answer, in ms. */
  elapsedMs: number;
  /** true when the caller gave up waiting. */
  timedOut?: boolean;
  /** Why no answer came (connection refused, timeout, ...). */
  error?: string;
}

/** Options of {@link postJson}. */
export interface PostJsonOptions {
  headers: Record<string, string>;
  /** The JSON text to send. */
  body: string;
  /** Give up after this many ms. */
  timeoutMs: number;
  /** Read at most this many bytes of the answer's body; 0 reads none (default 64 KiB). */
  maxBodyBytes?: number;
}

/** Bytes of an answer body kept by default: more than any `{message}` a member can read. */
export const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024;

const ERROR_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  EPIPE: 'connection closed',
};

/** A short description of a failed request: `connection refused (ECONNREFUSED)`. */
export function describeNetworkError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return `${ERROR_CODES[code] ?? 'request failed'} (${code})`;
  return error instanceof Error && error.message !== '' ? error.message : 'request failed';
}

/**
 * POSTs a JSON body and reports what happened; never throws. Redirects are not followed (a 3xx
 * is an answer like any other), and the answer must be complete, body included, within the time
 * limit: a status followed by a body that never ends is a timeout. Only http: and https: URLs.
 */
export function postJson(url: string, options: PostJsonOptions): Promise<HttpAttempt> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const maxBytes = options.maxBodyBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve({ elapsedMs: elapsed(), error: 'invalid URL' });
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    return Promise.resolve({
      elapsedMs: elapsed(),
      error: `unsupported protocol ${target.protocol}`,
    });
  }

  return new Promise((resolve) => {
    let settled = false;
    const finish = (attempt: HttpAttempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(attempt);
    };
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(target, {
      method: 'POST',
      headers: { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
    });
    const timer = setTimeout(() => {
      finish({
        elapsedMs: elapsed(),
        timedOut: true,
        error: `no complete answer within ${options.timeoutMs} ms`,
      });
      request.destroy();
    }, options.timeoutMs);

    request.on('error', (error) =>
      finish({ elapsedMs: elapsed(), error: describeNetworkError(error) }),
    );
    request.on('response', (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const answer = (truncated: boolean) =>
        finish({
          status: response.statusCode ?? 0,
          contentType: response.headers['content-type'] ?? null,
          body: Buffer.concat(chunks).toString('utf8'),
          ...(truncated ? { truncated } : {}),
          elapsedMs: elapsed(),
        });
      if (maxBytes === 0) {
        answer(false);
        response.destroy();
        return;
      }
      // Bounded by the size limit here and by the time limit above.
      response.on('data', (chunk: Buffer) => {
        const room = maxBytes - size;
        if (chunk.byteLength > room) {
          chunks.push(chunk.subarray(0, room));
          size = maxBytes;
          answer(true);
          response.destroy();
          return;
        }
        chunks.push(chunk);
        size += chunk.byteLength;
      });
      response.on('end', () => answer(false));
      response.on('error', (error) =>
        finish({ elapsedMs: elapsed(), error: describeNetworkError(error) }),
      );
      // A body cut short by the peer ends with 'aborted' and 'close' but no 'end'.
      response.on('close', () => {
        if (!response.complete)
          finish({ elapsedMs: elapsed(), error: 'connection closed before the answer ended' });
      });
    });
    request.end(options.body);
  });
}
