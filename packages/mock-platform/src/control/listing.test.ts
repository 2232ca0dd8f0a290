import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { matches } from '../service/recent-records.js';
import { listedRecords } from './listing.js';
import type { ControlDeps } from './route.js';
import { controlApp } from './router.js';

// The one shape of the control routes' record lists: a GET filtered by a validated query and a
// DELETE that forgets, served by the control router as the mock serves them.

interface Row {
  id: string;
  outcome: 'ok' | 'fault';
  questId: string;
}

function rowsApp() {
  let rows: Row[] = [
    { id: '1', outcome: 'ok', questId: 'a' },
    { id: '2', outcome: 'fault', questId: 'a' },
    { id: '3', outcome: 'fault', questId: 'b' },
  ];
  const routes = listedRecords({
    path: '/__mock/rows',
    summary: 'The rows',
    clearSummary: 'Clear the rows',
    query: 'outcome=fault',
    querySchema: z.object({
      outcome: z.enum(['ok', 'fault']).optional(),
      questId: z.string().optional(),
    }),
    list: (_deps, filter) => rows.filter((row) => matches(row, filter)),
    clear: () => {
      rows = [];
    },
  });
  const app = controlApp(routes, {} as ControlDeps);
  const get = async (query = '') => {
    const response = await app.request(`/__mock/rows${query}`);
    // biome-ignore lint/suspicious/noExplicitAny: JSON of two shapes (rows, an error), read loosely
    return { status: response.status, body: (await response.json()) as any };
  };
  return { routes, app, get };
}

describe('listedRecords', () => {
  it('describes a GET and a DELETE on one path, for the catalogue', () => {
    const { routes } = rowsApp();
    expect(
      routes.map(({ method, path, summary, query }) => ({ method, path, summary, query })),
    ).toEqual([
      { method: 'GET', path: '/__mock/rows', summary: 'The rows', query: 'outcome=fault' },
      { method: 'DELETE', path: '/__mock/rows', summary: 'Clear the rows', query: undefined },
    ]);
  });

  it('lists every record without a query, and those matching every given field with one', async () => {
    const { get } = rowsApp();
    expect((await get()).body.map((row: Row) => row.id)).toEqual(['1', '2', '3']);
    expect((await get('?outcome=fault')).body.map((row: Row) => row.id)).toEqual(['2', '3']);
    expect((await get('?outcome=fault&questId=a')).body.map((row: Row) => row.id)).toEqual(['2']);
  });

  it('refuses a query its schema refuses, with the public API’s 400 shape', async () => {
    const { get } = rowsApp();
    const answer = await get('?outcome=bogus');
    expect(answer.status).toBe(400);
    expect(answer.body.issues[0]).toMatchObject({ in: 'query', path: 'outcome' });
  });

  it('forgets every record on DELETE, answering 200 with no content', async () => {
    const { app, get } = rowsApp();
    const cleared = await app.request('/__mock/rows', { method: 'DELETE' });
    expect(cleared.status).toBe(200);
    expect(await cleared.text()).toBe('');
    expect((await get()).body).toEqual([]);
  });
});

describe('matches', () => {
  it('matches on every defined field of the filter; an undefined field matches any value', () => {
    const row: Row = { id: '1', outcome: 'ok', questId: 'a' };
    expect(matches(row, {})).toBe(true);
    expect(matches(row, { outcome: 'ok', questId: undefined })).toBe(true);
    expect(matches(row, { outcome: 'ok', questId: 'b' })).toBe(false);
    expect(matches(row, { outcome: 'fault' })).toBe(false);
  });
});
