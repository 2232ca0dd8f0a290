import { defineControlRoute } from './route.js';

/** The journal of public API requests, and clearing it. */
export const REQUEST_ROUTES = [
  defineControlRoute({
    method: 'GET',
    path: '/__mock/requests',
    summary: 'The journal of public API requests',
    handle: ({ c }, { context }) => c.json(context.journal.list()),
  }),
  defineControlRoute({
    method: 'DELETE',
    path: '/__mock/requests',
    summary: 'Clear the journal',
    handle: ({ c }, { context }) => {
      context.journal.clear();
      return c.body(null, 200);
    },
  }),
];
