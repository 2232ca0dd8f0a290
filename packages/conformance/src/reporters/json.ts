import type { ConformanceReport } from '../types.js';

/**
 * The report as indented JSON: the same object `runConformance` returns, secrets already
 * redacted unless the run was asked to show them.
 *
 * @example
 * process.stdout.write(formatJson(report));
 */
export function formatJson(report: ConformanceReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
