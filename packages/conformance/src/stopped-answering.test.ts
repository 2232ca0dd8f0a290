import type { ObservedAnswer } from '@questkit/core/api';
import { describe, expect, it } from 'vitest';
import type { Ended } from './exchange.js';
import { stoppedAnswering } from './stopped-answering.js';

// Where a server stopped, read from the order the run's requests ended. Whole runs against a
// server that dies are in headline.test.ts; these are the orders a run cannot make on purpose.
const answered = (id: string): Ended => ({ id, answer: { status: 400, elapsedMs: 3 } });
const failed = (id: string, error: string): Ended => ({
  id,
  answer: { elapsedMs: 3, error } satisfies ObservedAnswer,
});
const closed = (id: string) =>
  failed(id, 'the connection closed before a complete answer (UND_ERR_SOCKET)');
const refused = (id: string) => failed(id, 'connection refused (ECONNREFUSED)');

describe('stoppedAnswering', () => {
  it('names the probe whose connection closed, when every request after it was refused', () => {
    const stopped = stoppedAnswering([answered('claim'), closed('accounts.absent'), refused('x')]);
    expect(stopped).toMatchObject({ at: ['accounts.absent'], after: 'claim', refused: 1 });
    expect(stopped?.message).toBe(
      "The server stopped answering at accounts.absent: its connection closed without an answer, and the request after it was refused. It probably crashed, and anyone can send the request that crashed it: send it again (the curl line) and read the server's log.",
    );
  });

  it('names the last probe answered when the next was refused outright', () => {
    const stopped = stoppedAnswering([
      answered('claim'),
      answered('auth.wrong-key'),
      refused('a'),
      refused('b'),
    ]);
    expect(stopped?.message).toBe(
      "The server stopped answering after auth.wrong-key: the 2 requests after it were refused. It probably crashed, and anyone can send the request that crashed it: send it again (the curl line) and read the server's log.",
    );
  });

  it('reads one request refused after the last answer as a stop: nothing listens any more', () => {
    expect(stoppedAnswering([answered('claim'), refused('a')])).toMatchObject({
      at: [],
      after: 'claim',
      refused: 1,
    });
  });

  it('names the probes in flight together, the first three and how many more', () => {
    const stopped = stoppedAnswering([
      answered('claim'),
      ...['a', 'b', 'c', 'd', 'e'].map(closed),
      refused('f'),
    ]);
    expect(stopped?.at).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(stopped?.message).toMatch(
      /^The server stopped answering at one of a, b, c and 2 more, sent at once \(--concurrency 1 names the one\): their connections closed without an answer, and the request after them was refused\./,
    );
  });

  it('reads several connections closing together at the end, with nothing after, as a stop', () => {
    const stopped = stoppedAnswering([answered('claim'), closed('a'), closed('b')]);
    expect(stopped?.message).toMatch(
      /^The server stopped answering at one of a, b, sent at once \(--concurrency 1 names the one\): their connections closed without an answer, and nothing answered after them\. It probably crashed/,
    );
  });

  it('is no stop when answers came again, when nothing was refused, or when nothing ever answered', () => {
    expect(stoppedAnswering([answered('a'), closed('b'), answered('c')])).toBeUndefined();
    expect(stoppedAnswering([answered('a'), closed('b')])).toBeUndefined();
    expect(stoppedAnswering([refused('a'), refused('b')])).toBeUndefined();
    expect(
      stoppedAnswering([
        answered('a'),
        { id: 'b', answer: { elapsedMs: 10_000, timedOut: true, error: 'no complete answer' } },
      ]),
    ).toBeUndefined();
    expect(stoppedAnswering([])).toBeUndefined();
  });

  it('never reads requests that timed out, however many, as a server that stopped', () => {
    const timedOut = (id: string): Ended => ({
      id,
      answer: { elapsedMs: 10_000, timedOut: true, error: 'no complete answer within 10000 ms' },
    });
    expect(
      stoppedAnswering([answered('a'), timedOut('b'), timedOut('c'), timedOut('d')]),
    ).toBeUndefined();
    // A slow server that is still there: the stop is read from the refusals after the timeouts.
    expect(
      stoppedAnswering([answered('a'), timedOut('b'), closed('c'), refused('d')]),
    ).toMatchObject({ at: ['c'], after: 'a', refused: 1 });
  });
});
