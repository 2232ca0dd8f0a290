/** A request as the runner sends it. */
export interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** An answer as observed: the shape `checkVerificationAnswer` judges, plus the redirect target. */
export interface Observed {
  status?: number;
  contentType?: string | null;
  location?: string | null;
  body?: string;
  elapsedMs: number;
  timedOut?: boolean;
  error?: string;
  /** true when the run's own signal stopped the request. */
  cancelled?: boolean;
}

/**
 * Sends one request with global `fetch` and reads the whole answer, giving up after `timeoutMs`
 * (the time limit covers the body too, as the platform's does). Never throws: a refused
 * connection or a timeout is an observation like any other. Redirects are not followed.
 */
export async function send(
  request: OutgoingRequest,
  timeoutMs: number,
  stop?: AbortSignal,
  fetcher: typeof fetch = fetch,
): Promise<Observed> {
  // One controller for both causes, so no runtime needs AbortSignal.any, and the timer is
  // cleared as soon as the answer is complete.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onStop = () => controller.abort();
  if (stop?.aborted) controller.abort();
  stop?.addEventListener('abort', onStop, { once: true });
  const started = performance.now();
  try {
    const response = await fetcher(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal: controller.signal,
    });
    const body = await response.text();
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      location: response.headers.get('location'),
      body,
      elapsedMs: performance.now() - started,
    };
  } catch (error) {
    const elapsedMs = performance.now() - started;
    if (timedOut) return { elapsedMs, timedOut: true };
    if (stop?.aborted) return { elapsedMs, error: 'the run was stopped', cancelled: true };
    return { elapsedMs, error: describeFetchError(error) };
  } finally {
    clearTimeout(timer);
    stop?.removeEventListener('abort', onStop);
  }
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
  UND_ERR_SOCKET: 'the connection closed before a complete answer',
  UND_ERR_HEADERS_OVERFLOW: 'the answer headers are too large',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the TLS certificate is self-signed',
  CERT_HAS_EXPIRED: 'the TLS certificate has expired',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the TLS certificate cannot be verified',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the TLS certificate does not match the host',
};

/** A one-line reason for a failed fetch, from the error's cause where the runtime gives one. */
export function describeFetchError(error: unknown): string {
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
