/**
 * A non-2xx answer of the platform. `body` is the parsed JSON (`{message, issues?}` on the
 * platform's errors), or the text when the answer was not JSON.
 *
 * @example
 * try { await client.getUser({ userId }); }
 * catch (error) { if (error instanceof PlatformError && error.status === 404) ... }
 */
export class PlatformError extends Error {
  override name = 'PlatformError';
  constructor(
    message: string,
    /** The HTTP status; 0 when no answer came (network failure, timeout). */
    readonly status: number,
    readonly body: unknown,
    readonly operationId: string,
    /** true for a 429, a 5xx, a network failure or a timeout: the same call may pass later. */
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** No answer came: the connection failed (refused, reset, DNS). */
export class NetworkError extends PlatformError {
  override name = 'NetworkError';
  constructor(operationId: string, cause: unknown) {
    super(
      `${operationId}: no answer from the platform (${describe(cause)})`,
      0,
      null,
      operationId,
      true,
      { cause },
    );
  }
}

/** No complete answer within `timeoutMs`. */
export class TimeoutError extends PlatformError {
  override name = 'TimeoutError';
  constructor(
    operationId: string,
    readonly timeoutMs: number,
  ) {
    super(`${operationId}: no answer within ${timeoutMs} ms`, 0, null, operationId, true);
  }
}

/**
 * The platform answered with a redirect the client does not follow: to another origin than
 * `baseUrl`'s (the API key, the member token and the body never leave that origin), to a URL
 * that does not parse, or past 20 hops. `location` is the target as the answer named it,
 * resolved against the request's URL; the message names it, never a credential.
 */
export class RedirectError extends PlatformError {
  override name = 'RedirectError';
  constructor(
    operationId: string,
    status: number,
    /** Where the redirect points, resolved to an absolute URL when it parses; null when hidden. */
    readonly location: string | null,
    reason: string,
  ) {
    super(`${operationId}: ${reason}`, status, null, operationId, false);
  }
}

/** A 2xx answer whose body core's schema rejects; `path` names the first bad field. */
export class ResponseValidationError extends PlatformError {
  override name = 'ResponseValidationError';
  constructor(
    operationId: string,
    status: number,
    body: unknown,
    /** The path of the first bad field, e.g. `0.communityImageUrl`; empty for the whole body. */
    readonly path: string,
    problem: string,
  ) {
    super(
      `${operationId}: the answer does not match the contract at ${path || '(body)'}: ${problem}`,
      status,
      body,
      operationId,
      false,
    );
  }
}

function describe(cause: unknown): string {
  const inner = (cause as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof inner?.code === 'string') return inner.code;
  if (typeof inner?.message === 'string') return inner.message;
  return cause instanceof Error ? cause.message : String(cause);
}
