import type { ObservedAnswer } from './checks.js';

// How the conformance runner and the mock platform record a call they made, for a report or a
// journal: the one shape of what was sent and of what came back, and the one way a secret in it
// is hidden.

/** What a record shows in place of a secret it was not asked to show. */
export const REDACTED = 'REDACTED';

/** A request as its sender records it, secrets redacted unless they were asked to be shown. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The body as text (cut to the recorder's limit, if it has one); absent when none was sent. */
  body?: string;
  /** The size of the body actually sent, in bytes. */
  bodyBytes: number;
}

/**
 * What came back for a request (or why nothing did), as recorded: an `ObservedAnswer`, its
 * body cut to the recorder's limit if it has one, and what a judge read in the whole body.
 */
export interface ReceivedAnswer extends ObservedAnswer {
  /** The `message` a member is shown, as core's check read it from the whole body. */
  message?: string;
  /**
   * What in a 200's JSON says no (`"verified": false`, an `error` field): the platform reads only
   * the status, so it credits the member all the same.
   */
  refusal?: string;
}

/** What {@link recordSentRequest} and {@link recordReceivedAnswer} hide and cut. */
export interface RecordOptions {
  /** Values shown as {@link REDACTED} wherever they appear; empty strings are ignored. */
  secrets?: readonly string[];
  /** Cut a longer body to this many characters, saying how long it was (default: never). */
  maxBodyChars?: number;
}

/**
 * `text` with every occurrence of each of `secrets` replaced by {@link REDACTED}, as written and
 * as a JSON string escapes it (a webhook secret travels inside a JSON body).
 *
 * @example
 * redact('{"secret":"s3cr\\"t"}', ['s3cr"t']); // '{"secret":"REDACTED"}'
 */
export function redact(text: string, secrets: readonly string[]): string {
  let shown = text;
  // Longest first, so a secret that contains another is hidden whole.
  const ordered = secrets.filter((secret) => secret !== '').sort((a, b) => b.length - a.length);
  for (const secret of ordered) {
    shown = shown.replaceAll(secret, REDACTED);
    const escaped = JSON.stringify(secret).slice(1, -1);
    if (escaped !== secret) shown = shown.replaceAll(escaped, REDACTED);
  }
  return shown;
}

function cut(text: string, maxChars: number | undefined): string {
  return maxChars === undefined || text.length <= maxChars
    ? text
    : `${text.slice(0, maxChars)}… (${text.length} characters in all)`;
}

/**
 * A request as a report or a journal shows it: each secret redacted in its URL, header values
 * and body, the body cut to `maxBodyChars`, and the size of the body actually sent.
 *
 * @example
 * recordSentRequest(
 *   { method: 'POST', url, headers: { 'x-api-key': apiKey }, body: '{}' },
 *   { secrets: [apiKey] },
 * ).headers['x-api-key']; // 'REDACTED'
 */
export function recordSentRequest(
  request: { method: string; url: string; headers: Record<string, string>; body?: string },
  options: RecordOptions = {},
): SentRequest {
  const secrets = options.secrets ?? [];
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    headers[name] = redact(value, secrets);
  }
  return {
    method: request.method,
    url: redact(request.url, secrets),
    headers,
    ...(request.body !== undefined
      ? { body: cut(redact(request.body, secrets), options.maxBodyChars) }
      : {}),
    bodyBytes: request.body === undefined ? 0 : new TextEncoder().encode(request.body).length,
  };
}

/**
 * An answer as a report or a journal shows it: the observed fields that are set, the time
 * rounded to 0.1 ms, each secret redacted in its `location` and body, the body cut to
 * `maxBodyChars`.
 */
export function recordReceivedAnswer(
  answer: ObservedAnswer,
  options: RecordOptions = {},
): ReceivedAnswer {
  const secrets = options.secrets ?? [];
  return {
    elapsedMs: Math.round(answer.elapsedMs * 10) / 10,
    ...(answer.status !== undefined ? { status: answer.status } : {}),
    ...(answer.contentType !== undefined ? { contentType: answer.contentType } : {}),
    ...(answer.location ? { location: redact(answer.location, secrets) } : {}),
    ...(answer.body !== undefined
      ? { body: cut(redact(answer.body, secrets), options.maxBodyChars) }
      : {}),
    ...(answer.truncated ? { truncated: true } : {}),
    ...(answer.timedOut ? { timedOut: true } : {}),
    ...(answer.error !== undefined ? { error: answer.error } : {}),
  };
}
