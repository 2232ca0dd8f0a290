import type { ObservedAnswer } from '@questkit/core/api';

// The one way questkit calls an endpoint: the conformance runner (over `fetch`, or the fetch
// handler a test hands it) and the mock platform's service side (over node:http, its own
// transport) both send through `send`, so a deadline, a size limit, a redirect or a refused
// connection is observed alike by both. The transport only moves bytes; every decision (the
// time limit, the size limit, what an error means) is taken here, once.

/** A request as an endpoint is sent it. */
export interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** What a transport hands back once the status and headers are in: the body is still to read. */
export interface TransportAnswer {
  status: number;
  /** A header of the answer, or null when it is absent. */
  header(name: string): string | null;
  /** The body's chunks, read until their end, the size limit or the deadline. */
  body: AsyncIterable<Uint8Array> | null;
}

/**
 * Moves one request over the wire. It must not follow redirects, must reject when the connection
 * fails (an error with a `code`, or a `cause` with one, is named), and should stop its I/O when
 * `signal` aborts (the deadline passed, the caller stopped, or the body was read as far as the
 * size limit): `send` does not wait for it.
 */
export type Transport = (request: OutgoingRequest, signal: AbortSignal) => Promise<TransportAnswer>;

/** Options of {@link send}. */
export interface SendOptions {
  /** The answer, body included, must be complete within this many ms; past it, a timeout. */
  timeoutMs: number;
  /** Read at most this many bytes of the answer's body; 0 reads none. Default 64 KiB. */
  maxBodyBytes?: number;
  /** Stops the request when it aborts (the answer is then `error: 'the run was stopped'`). */
  signal?: AbortSignal;
  /** How to send it. Default: the global `fetch`. */
  transport?: Transport;
}

/** Bytes of an answer body kept by default: more than any `{message}` a member can read. */
export const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024;

/** The `error` of an answer cut short because the caller's signal stopped it. */
export const STOPPED = 'the run was stopped';

/**
 * Sends one request and reports what came back as core's `ObservedAnswer`; never throws. The
 * answer must be complete, body included, within `timeoutMs` (a status followed by a body that
 * never ends is a timeout, as the platform counts it); the body is cut at `maxBodyBytes`
 * (`truncated`); redirects are not followed (a 3xx is an answer like any other); a connection
 * that fails is an answer without a status, with `error` saying why. Only http: and https: URLs.
 * Durations are real time (`performance.now()`), never a test's clock.
 *
 * @example
 * const answer = await send(
 *   { method: 'POST', url, headers: { 'content-type': 'application/json' }, body: '{}' },
 *   { timeoutMs: 10_000 },
 * );
 * checkVerificationAnswer(answer).passed;
 */
export function send(request: OutgoingRequest, options: SendOptions): Promise<ObservedAnswer> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return Promise.resolve({ elapsedMs: elapsed(), error: 'invalid URL' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return Promise.resolve({ elapsedMs: elapsed(), error: `unsupported protocol ${url.protocol}` });
  }
  const { timeoutMs, signal: stop } = options;
  const maxBytes = options.maxBodyBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  const transport = options.transport ?? fetchTransport();

  return new Promise((resolve) => {
    // One controller for both causes (the deadline, the caller's stop), so no runtime needs
    // AbortSignal.any; the answer settles once, whichever comes first.
    const controller = new AbortController();
    let settled = false;
    const finish = (answer: ObservedAnswer, abort: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stop?.removeEventListener('abort', onStop);
      if (abort) controller.abort();
      resolve(answer);
    };
    const timer = setTimeout(
      () =>
        finish(
          {
            elapsedMs: elapsed(),
            timedOut: true,
            error: `no complete answer within ${timeoutMs} ms`,
          },
          true,
        ),
      timeoutMs,
    );
    const onStop = () => finish({ elapsedMs: elapsed(), error: STOPPED }, true);
    if (stop?.aborted) return onStop();
    stop?.addEventListener('abort', onStop, { once: true });

    transport(request, controller.signal)
      .then(async (answer) => {
        const { text, truncated, complete } = await readBounded(answer.body, maxBytes);
        finish(
          {
            status: answer.status,
            contentType: answer.header('content-type'),
            location: answer.header('location'),
            body: text,
            ...(truncated ? { truncated } : {}),
            elapsedMs: elapsed(),
          },
          !complete,
        );
      })
      .catch((error: unknown) =>
        finish({ elapsedMs: elapsed(), error: describeNetworkError(error) }, true),
      );
  });
}

/**
 * Reads a body up to `maxBytes`. `complete` is false when reading stopped before the end (the
 * size limit): the caller then aborts the transport, which ends the rest of the I/O.
 */
async function readBounded(
  body: AsyncIterable<Uint8Array> | null,
  maxBytes: number,
): Promise<{ text: string; truncated: boolean; complete: boolean }> {
  if (body === null) return { text: '', truncated: false, complete: true };
  // maxBytes 0 reads nothing, not even a first chunk that may never come.
  if (maxBytes <= 0) return { text: '', truncated: false, complete: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  const iterator = body[Symbol.asyncIterator]();
  // Bounded by the size limit here and by the deadline in `send`.
  for (;;) {
    const next = await iterator.next();
    if (next.done) return { text: decode(chunks, size), truncated: false, complete: true };
    const room = maxBytes - size;
    if (next.value.byteLength > room) {
      chunks.push(next.value.subarray(0, room));
      return { text: decode(chunks, maxBytes), truncated: true, complete: false };
    }
    chunks.push(next.value);
    size += next.value.byteLength;
  }
}

function decode(chunks: readonly Uint8Array[], size: number): string {
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * The default transport: a `fetch` function (the global one, or a fetch handler such as a Hono
 * app's `app.fetch`), with redirects not followed.
 */
export function fetchTransport(
  fetcher: (input: string, init: RequestInit) => Promise<Response> = (input, init) =>
    fetch(input, init),
): Transport {
  return async (request, signal) => {
    const response = await fetcher(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
      redirect: 'manual',
      signal,
    });
    return {
      status: response.status,
      header: (name) => response.headers.get(name),
      body: response.body === null ? null : chunksOf(response.body),
    };
  };
}

/** A Web stream as chunks; leaving early (`return`) cancels the rest of it. */
function chunksOf(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      const reader = stream.getReader();
      return {
        next: () => reader.read() as Promise<IteratorResult<Uint8Array>>,
        return: async () => {
          await reader.cancel().catch(() => {});
          return { done: true, value: undefined };
        },
      };
    },
  };
}

const NETWORK_ERRORS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'the connection timed out',
  EPIPE: 'the connection closed while the request was sent',
  ERR_STREAM_PREMATURE_CLOSE: 'the connection closed before the answer ended',
  UND_ERR_SOCKET: 'the connection closed before a complete answer',
  UND_ERR_HEADERS_OVERFLOW: 'the answer headers are too large',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the TLS certificate is self-signed',
  CERT_HAS_EXPIRED: 'the TLS certificate has expired',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the TLS certificate cannot be verified',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the TLS certificate does not match the host',
};

/**
 * A one-line reason for a failed request, from the error's code (or its cause's, as `fetch`
 * wraps it): `connection refused (ECONNREFUSED)`.
 */
export function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const code = readString(cause, 'code') ?? readString(error, 'code');
  if (code !== undefined) {
    const known = NETWORK_ERRORS[code];
    return known ? `${known} (${code})` : code;
  }
  return readString(cause, 'message') ?? readString(error, 'message') ?? 'the request failed';
}

function readString(value: unknown, key: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === 'string' && field !== '' ? field : undefined;
}
