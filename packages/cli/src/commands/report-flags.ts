import type { FlagSpec } from '../flags.js';

// The report flags `check` and `check-webhook` share, so both spell and document them alike.

export const JSON_FLAG: FlagSpec = {
  name: 'json',
  type: 'boolean',
  env: 'QUESTKIT_JSON',
  description: 'Print the report as JSON instead of the table',
};

export const JUNIT_FLAG: FlagSpec = {
  name: 'junit',
  type: 'string',
  env: 'QUESTKIT_JUNIT',
  placeholder: '<file>',
  description: 'Also write the report as JUnit XML to this file',
};

export const NO_COLOR_FLAG: FlagSpec = {
  name: 'no-color',
  type: 'boolean',
  env: 'NO_COLOR',
  description: 'No colors, even on a terminal',
};
