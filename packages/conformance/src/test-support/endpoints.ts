import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { type VerificationRequest, VerificationRequestSchema } from '@questkit/core';

/** The API key of the test endpoints. */
export const TEST_API_KEY = 'test-key-3f9a1c';

const MAX_BODY = 64 * 1024;
const KNOWN_FIELDS = new Set(Object.keys(VerificationRequestSchema.shape));

/**
 * One deliberate fault of a hand-written endpoint. Each is a mistake seen in the wild; the
 * endpoint without faults keeps the contract for every input.
 */
export interface Faults {
  /** Answers this status (e.g. 401) to a missing or wrong key instead of 400. */
  keyStatus?: number;
  /** Never checks the key. */
  acceptAnyKey?: boolean;
  /** `body.accounts.email` without a guard: 500 when accounts is absent. */
  crashOnMissingAccounts?: boolean;
  /** The framework's HTML error page on a body that is not JSON. */
  htmlOnBadJson?: boolean;
  /** Answers this status (e.g. 405) to any method but POST. */
  methodStatus?: number;
  /** 400 answers carry `{error}` instead of `{message}`, or an empty message. */
  badMessage?: 'missing' | 'empty';
  /** Sleeps this long before every answer. */
  delayMs?: number;
  /** Iterates the body's keys and throws on one it does not know. */
  crashOnUnknownFields?: boolean;
  /** A strict schema: 400 on a key it does not know. */
  rejectUnknownFields?: boolean;
  /** Answers this status (e.g. 415) when the content-type is not JSON. */
  contentTypeStatus?: number;
  /** Answers this status (e.g. 413) to a body over 64 KiB. */
  oversizeStatus?: number;
  /** `body.userId.trim()` without a type check: 500 when userId is not a string. */
  crashOnWrongTypes?: boolean;
  /** Answers 500 while more than this many claims are in flight (a shared connection, a lock). */
  maxInFlight?: number;
  /** With `maxInFlight`: how long each claim holds its slot, in ms. */
  holdMs?: number;
}

/** What the endpoint decides for a valid claim; default: claimed. */
export type Verdict = (claim: VerificationRequest) => boolean;

/** A running endpoint's timers, so a test can close it without waiting for a sleeping handler. */
export interface EndpointControl {
  listener: RequestListener;
  /** Clears pending sleeps. */
  dispose: () => void;
}

function send(res: ServerResponse, status: number, body: string, type = 'application/json'): void {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
}

/**
 * A verification endpoint written by hand with node:http, as a community developer would, with
 * optional faults. Without faults it is correct: every answer is 200 or 400 `{message}`.
 */
export function handWrittenEndpoint(
  faults: Faults = {},
  verdict: Verdict = () => true,
): EndpointControl {
  const timers = new Set<NodeJS.Timeout>();
  let inFlight = 0;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const answer = (res: ServerResponse, status: 200 | 400, message: string) => {
    if (status === 400 && faults.badMessage === 'missing')
      return send(res, 400, JSON.stringify({ error: message }));
    if (status === 400 && faults.badMessage === 'empty')
      return send(res, 400, JSON.stringify({ message: '' }));
    send(res, status, JSON.stringify({ message }));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    // Read the whole body even past the limit, so the client always gets the answer.
    let size = 0;
    const chunks: Buffer[] = [];
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size <= MAX_BODY) chunks.push(chunk as Buffer);
    }
    if (faults.delayMs) await sleep(faults.delayMs);

    if (req.method !== 'POST') {
      if (faults.methodStatus)
        return send(res, faults.methodStatus, 'Method Not Allowed', 'text/plain');
      return answer(res, 400, 'Send the claim with POST.');
    }
    if (!faults.acceptAnyKey && req.headers['x-api-key'] !== TEST_API_KEY) {
      if (faults.keyStatus)
        return send(res, faults.keyStatus, JSON.stringify({ message: 'Unauthorized' }));
      return answer(res, 400, 'This endpoint is not configured for this task.');
    }
    if (faults.contentTypeStatus && !/json/i.test(req.headers['content-type'] ?? '')) {
      return send(
        res,
        faults.contentTypeStatus,
        JSON.stringify({ message: 'Unsupported Media Type' }),
      );
    }
    if (size > MAX_BODY) {
      if (faults.oversizeStatus)
        return send(res, faults.oversizeStatus, 'Payload Too Large', 'text/plain');
      return answer(res, 400, 'The claim is too large.');
    }
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      if (faults.htmlOnBadJson) {
        return send(
          res,
          400,
          '<!DOCTYPE html><html><body><pre>SyntaxError: Unexpected end of JSON input</pre></body></html>',
          'text/html',
        );
      }
      return answer(res, 400, 'The claim is not valid JSON.');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return answer(res, 400, 'The claim must be a JSON object.');
    }
    const record = body as Record<string, unknown>;
    const unknown = Object.keys(record).filter((key) => !KNOWN_FIELDS.has(key));
    if (unknown.length > 0 && faults.crashOnUnknownFields) {
      return send(res, 500, '<html><body>Internal Server Error</body></html>', 'text/html');
    }
    if (unknown.length > 0 && faults.rejectUnknownFields) {
      return answer(res, 400, `Unknown field ${unknown[0]}.`);
    }
    if (faults.crashOnMissingAccounts && !('accounts' in record)) {
      return send(
        res,
        500,
        JSON.stringify({ message: "Cannot read properties of undefined (reading 'email')" }),
      );
    }
    if (faults.crashOnWrongTypes && typeof record.userId !== 'string') {
      return send(res, 500, JSON.stringify({ message: 'body.userId.trim is not a function' }));
    }
    const parsed = VerificationRequestSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return answer(
        res,
        400,
        `Invalid claim: ${issue?.path.join('.') || 'body'} ${issue?.message ?? ''}`.trim(),
      );
    }
    if (faults.maxInFlight !== undefined) {
      inFlight++;
      try {
        if (inFlight > faults.maxInFlight)
          return send(res, 500, JSON.stringify({ message: 'pool exhausted' }));
        await sleep(faults.holdMs ?? 0);
      } finally {
        inFlight--;
      }
    }
    return verdict(parsed.data)
      ? answer(res, 200, 'Task verified.')
      : answer(res, 400, 'You have not done this task yet.');
  };

  return {
    listener: (req, res) => {
      handle(req, res).catch(() => {
        if (!res.headersSent) send(res, 500, 'crashed', 'text/plain');
      });
    },
    dispose: () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
