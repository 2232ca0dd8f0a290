import { listedRecords } from './listing.js';

/** The journal of public API requests, and clearing it. */
export const REQUEST_ROUTES = listedRecords({
  path: '/__mock/requests',
  summary: 'The journal of public API requests',
  clearSummary: 'Clear the journal',
  list: ({ context }) => context.journal.list(),
  clear: ({ context }) => context.journal.clear(),
});
