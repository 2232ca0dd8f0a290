import { escapeJson } from '../escape.js';
import type { ConformanceReport } from '../types.js';

/**
 * The report as indented JSON: the same object `runConformance` returns, secrets already
 * redacted unless the run was asked to show them. Characters that act on a terminal (C1
 * controls, bidi, invisible and tag characters) are written as JSON escapes: a parser reads the
 * same strings back.
 *
 * @example
 * process.stdout.write(formatJson(report));
 */
export function formatJson(report: ConformanceReport): string {
  return `${escapeJson(JSON.stringify(report, null, 2))}\n`;
}
