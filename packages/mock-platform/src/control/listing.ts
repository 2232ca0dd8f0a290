import type { z } from 'zod';
import { type ControlDeps, type ControlRouteDefinition, defineControlRoute } from './route.js';

/** Records the mock keeps (requests, calls, claims, endpoint checks) as two control routes. */
export interface ListedRecords<S extends z.ZodType | undefined> {
  /** The path of both routes: `/__mock/calls`. */
  path: string;
  /** The GET's summary. */
  summary: string;
  /** The DELETE's summary. */
  clearSummary: string;
  /** The GET's example query string, without `?`. */
  query?: string;
  /** The GET's filter, validated before `list` runs (400 `{message, issues}` otherwise). */
  querySchema?: S;
  list(deps: ControlDeps, filter: S extends z.ZodType ? z.output<S> : undefined): unknown;
  clear(deps: ControlDeps): void;
}

/**
 * The GET that answers the records matching its query, and the DELETE that forgets them (200, no
 * content): the shape of every record list of the control routes.
 *
 * @example
 * listedRecords({ path: '/__mock/requests', summary: 'The journal', clearSummary: 'Clear it',
 *   list: ({ context }) => context.journal.list(), clear: ({ context }) => context.journal.clear() });
 */
export function listedRecords<S extends z.ZodType | undefined = undefined>(
  records: ListedRecords<S>,
): ControlRouteDefinition[] {
  return [
    defineControlRoute({
      method: 'GET',
      path: records.path,
      summary: records.summary,
      ...(records.query !== undefined ? { query: records.query } : {}),
      ...(records.querySchema !== undefined ? { querySchema: records.querySchema } : {}),
      handle: ({ query, c }, deps) =>
        c.json(records.list(deps, query as Parameters<ListedRecords<S>['list']>[1])),
    }),
    defineControlRoute({
      method: 'DELETE',
      path: records.path,
      summary: records.clearSummary,
      handle: ({ c }, deps) => {
        records.clear(deps);
        return c.body(null, 200);
      },
    }),
  ];
}
