import { toCurl } from './curl.js';
import type { JudgedAnswer } from './judge.js';
import type { OutgoingRequest } from './send.js';
import type { Settings } from './settings.js';
import type { ReceivedAnswer, SentRequest } from './types.js';

// What a check shows of the exchange it judged: display copies, cut to a readable length, with
// the run's key redacted. Nothing is judged from them.

const PREVIEW_CHARS = 1000;

function preview(text: string): string {
  return text.length <= PREVIEW_CHARS
    ? text
    : `${text.slice(0, PREVIEW_CHARS)}… (${text.length} characters in all)`;
}

/** The request as the report shows it; only the run's own key is a secret. */
export function describeSent(request: OutgoingRequest, settings: Settings): SentRequest {
  const headers = { ...request.headers };
  // The made-up wrong key is shown as sent.
  if (
    !settings.showSecrets &&
    settings.apiKey !== undefined &&
    headers['x-api-key'] === settings.apiKey
  ) {
    headers['x-api-key'] = 'REDACTED';
  }
  return {
    method: request.method,
    url: request.url,
    headers,
    ...(request.body !== undefined ? { body: preview(request.body) } : {}),
    bodyBytes: request.body === undefined ? 0 : new TextEncoder().encode(request.body).length,
  };
}

/** The answer as the report shows it, with what the judge read in the whole body. */
export function describeReceived(judged: JudgedAnswer): ReceivedAnswer {
  const { answer, report, refusal } = judged;
  return {
    elapsedMs: Math.round(answer.elapsedMs * 10) / 10,
    ...(answer.status !== undefined ? { status: answer.status } : {}),
    ...(answer.contentType !== undefined ? { contentType: answer.contentType } : {}),
    ...(answer.location ? { location: answer.location } : {}),
    ...(answer.body !== undefined ? { body: preview(answer.body) } : {}),
    ...(answer.timedOut ? { timedOut: true } : {}),
    ...(answer.error !== undefined ? { error: answer.error } : {}),
    ...(report.message !== undefined ? { message: report.message } : {}),
    ...(refusal !== undefined ? { refusal } : {}),
  };
}

/** A curl line that sends the request again; it reads the run's key from the shell. */
export function reproOf(request: OutgoingRequest, settings: Settings): string {
  return toCurl(request, {
    timeoutMs: settings.timeoutMs,
    ...(settings.showSecrets ? {} : { redactApiKey: settings.apiKey }),
  });
}
