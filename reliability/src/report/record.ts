/**
 * Suites record one row per thing they tried; the global setup gathers the rows of a run and
 * prints them as the results table.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';

/** One line of the results table. */
export interface ResultRow {
  /** The area, e.g. "Verification endpoints: fuzz"; rows are grouped by it. */
  area: string;
  /** What ran, e.g. "express 5". */
  subject: string;
  /** Requests, claims or deliveries sent. */
  requests: number;
  /** Faults injected (misbehaving handlers, clients, receivers), when the row is about faults. */
  faults: number;
  /** What held, in a few words, with the figures measured. */
  held: string;
  /** Invariant violations found: 0 when everything held. */
  violations: number;
}

/** Adds a row to the run's results table. Call it before asserting, so failures are counted too. */
export function record(row: ResultRow): void {
  writeFileSync(join(inject('resultsDir'), `${randomUUID()}.json`), JSON.stringify(row));
}

/** Megabytes with one decimal. */
export function mb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A count with thousands separators, as the table prints them. */
export function n(value: number): string {
  return value.toLocaleString('en-US');
}
