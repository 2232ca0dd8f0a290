import type { ObservedAnswer } from '@questkit/core/api';
import type { Ended } from './exchange.js';

/** A server that answered, then stopped: where it stopped, and the sentence that says so. */
export interface StoppedAnswering {
  /**
   * The probes whose connection closed without an answer as the server stopped: one of them
   * probably stopped it (several when they were in flight together). Empty when every request
   * after the last answer was refused outright.
   */
  at: string[];
  /** The last probe answered before the server stopped. */
  after: string;
  /** How many requests were refused once it had stopped. */
  refused: number;
  /** What happened, in a sentence a developer can act on. */
  message: string;
}

/** No answer at all: the connection failed (refused, reset, closed), as opposed to a timeout. */
export function connectionFailed(answer: ObservedAnswer): boolean {
  return answer.status === undefined && answer.timedOut !== true && answer.error !== undefined;
}

// Nothing listens any more: the one failure that says the server is gone, not just one request.
const refusedOutright = (answer: ObservedAnswer) => /\bECONNREFUSED\b/.test(answer.error ?? '');

/**
 * Whether the server stopped answering during the run: requests were answered, then every
 * request from some point on failed to connect, and at least one of those was refused (nothing
 * listened any more) or several closed without an answer. A reset followed by answers is not a
 * stop, nor is one closed connection at the very end, nor an endpoint that never answered (that
 * is an unreachable one).
 */
export function stoppedAnswering(timeline: readonly Ended[]): StoppedAnswering | undefined {
  let start = timeline.length;
  while (start > 0 && connectionFailed(timeline[start - 1]!.answer)) start--;
  const tail = timeline.slice(start);
  const before = timeline.slice(0, start);
  const lastAnswered = before.findLast((ended) => ended.answer.status !== undefined);
  const refused = tail.filter((ended) => refusedOutright(ended.answer)).length;
  // One connection closed at the very end may be that request's own trouble (a reset on an
  // oversize body); a refusal, or several closing together with nothing answered after, is not.
  if (lastAnswered === undefined || (refused === 0 && tail.length < 2)) return undefined;
  const at = [...new Set(tail.filter((ended) => !refusedOutright(ended.answer)).map((e) => e.id))];
  const after = lastAnswered.id;
  const crashed = `It probably crashed, and anyone can send the request that crashed it: send it again (the curl line) and read the server's log.`;
  let message: string;
  if (at.length === 0) {
    message = `The server stopped answering after ${after}: ${laterRefused(refused, 'it')}. ${crashed}`;
  } else if (at.length === 1) {
    message = `The server stopped answering at ${at[0]}: its connection closed without an answer, and ${laterRefused(refused, 'it')}. ${crashed}`;
  } else {
    message = `The server stopped answering at one of ${listed(at)}, sent at once (--concurrency 1 names the one): their connections closed without an answer, and ${laterRefused(refused, 'them')}. ${crashed}`;
  }
  return { at, after, refused, message };
}

/** Ids for a sentence: the first three, and how many more. */
function listed(ids: readonly string[]): string {
  if (ids.length <= 3) return ids.join(', ');
  return `${ids.slice(0, 3).join(', ')} and ${ids.length - 3} more`;
}

function laterRefused(count: number, what: string): string {
  if (count === 0) return `nothing answered after ${what}`;
  return count === 1
    ? `the request after ${what} was refused`
    : `the ${count} requests after ${what} were refused`;
}
