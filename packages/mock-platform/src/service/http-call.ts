// One outgoing POST of the service side (a verification call, a webhook delivery), described as
// data: what came back, how long it took, or why nothing came. Durations are real time
// (`performance.now()`), not the platform clock: a manual clock must not make a slow endpoint fast.

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
  UND_ERR_SOCKET: 'connection closed',
};

/** A short description of a failed fetch: `connection refused (ECONNREFUSED)`. */
export function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  if (code) return `${ERROR_CODES[code] ?? 'request failed'} (${code})`;
  if (typeof cause?.message === 'string' && cause.message !== '') return cause.message;
  return error instanceof Error ? error.message : 'request failed';
}

async function readText(
  response: Response,
  maxBytes: number,
): Promise<{ text: string; truncated: boolean }> {
  if (!response.body) return { text: '', truncated: false };
  if (maxBytes === 0) {
    await response.body.cancel();
    return { text: '', truncated: false };
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  // Bounded by the size limit and by the time limit (the abort signal also ends the body).
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = maxBytes - size;
    if (value.byteLength > room) {
      chunks.push(value.subarray(0, room));
      size = maxBytes;
      truncated = true;
      await reader.cancel();
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { text: new TextDecoder().decode(bytes), truncated };
}

/**
 * POSTs a JSON body and reports what happened; never throws. Redirects are not followed (a 3xx
 * is an answer like any other), and the answer must be complete, body included, within the time
 * limit: a status followed by a body that never ends is a timeout.
 */
export async function postJson(url: string, options: PostJsonOptions): Promise<HttpAttempt> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: options.headers,
      body: options.body,
      redirect: 'manual',
      signal: controller.signal,
    });
    const { text, truncated } = await readText(
      response,
      options.maxBodyBytes ?? DEFAULT_MAX_ANSWER_BYTES,
    );
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      body: text,
      ...(truncated ? { truncated } : {}),
      elapsedMs: elapsed(),
    };
  } catch (error) {
    if (controller.signal.aborted) {
      return {
        elapsedMs: elapsed(),
        timedOut: true,
        error: `no complete answer within ${options.timeoutMs} ms`,
      };
    }
    return { elapsedMs: elapsed(), error: describeFetchError(error) };
  } finally {
    clearTimeout(timer);
  }
}
