/**
 * The verification endpoint's contract, checked on a raw answer independently of the code under
 * test: 200 or 400, JSON, exactly `{message}` with a readable message.
 */
import type { RawResponse } from './raw-http.js';

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const MAX_MESSAGE = 500;

/** What is wrong with an answer; empty when it keeps the contract. */
export function contractViolations(response: RawResponse, options: { head: boolean }): string[] {
  const problems: string[] = [];
  if (response.status !== 200 && response.status !== 400) {
    problems.push(`status ${response.status}`);
  }
  const type = response.headers.get('content-type') ?? [];
  if (type.length !== 1 || !/^application\/json\b/i.test(type[0] ?? '')) {
    problems.push(`content-type ${JSON.stringify(type)}`);
  }
  // A HEAD answer has no body by definition: the status and type are all there is to check.
  if (options.head) return problems;
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(response.body));
  } catch {
    problems.push(`body is not JSON: ${JSON.stringify(response.body.subarray(0, 120).toString())}`);
    return problems;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    problems.push('body is not an object');
    return problems;
  }
  const keys = Object.keys(body);
  if (keys.length !== 1 || keys[0] !== 'message')
    problems.push(`body keys ${JSON.stringify(keys)}`);
  const message = (body as { message?: unknown }).message;
  if (typeof message !== 'string') {
    problems.push('message is not a string');
  } else if (
    message.trim() !== message ||
    message === '' ||
    CONTROL.test(message) ||
    [...message].length > MAX_MESSAGE
  ) {
    problems.push(`message not readable: ${JSON.stringify(message.slice(0, 120))}`);
  }
  return problems;
}

/** The message of a contract-keeping answer. */
export function messageOf(response: RawResponse): string {
  return (JSON.parse(response.body.toString('utf8')) as { message: string }).message;
}

/**
 * Whether an answer is the HTTP server's own refusal of a request its parser could not read:
 * Node's bare 4xx, or the `{error, message, statusCode}` JSON of Fastify's `clientError`
 * handler, written before any route or adapter runs.
 */
export function isParserRefusal(response: RawResponse): boolean {
  if (response.status < 400 || response.status > 499) return false;
  if (response.body.length === 0) return true;
  try {
    const body = JSON.parse(response.body.toString('utf8')) as Record<string, unknown>;
    return (
      Object.keys(body).sort().join() === 'error,message,statusCode' &&
      body.statusCode === response.status
    );
  } catch {
    return false;
  }
}
