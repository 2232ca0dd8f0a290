import { describe, expect, it } from 'vitest';
import { createServedRequests, type RequestRecord } from './served-requests.js';

const entry = (n: number): RequestRecord => ({
  at: new Date(n).toISOString(),
  method: 'GET',
  path: `/${n}`,
  operationId: 'x',
  status: 200,
  principal: null,
  mcpClient: null,
  confirmationToken: null,
});

describe('journal', () => {
  it('keeps the last entries, oldest first', () => {
    const journal = createServedRequests(3);
    for (let n = 1; n <= 5; n++) journal.record(entry(n));
    expect(journal.list().map((e) => e.path)).toEqual(['/3', '/4', '/5']);
    journal.clear();
    expect(journal.list()).toEqual([]);
    journal.record(entry(9));
    expect(journal.list().map((e) => e.path)).toEqual(['/9']);
  });

  it('keeps nothing with size 0', () => {
    const journal = createServedRequests(0);
    journal.record(entry(1));
    expect(journal.list()).toEqual([]);
  });
});
