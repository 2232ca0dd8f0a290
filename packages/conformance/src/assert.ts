import { runConformance } from './run.js';
import type { ConformanceOptions, ConformanceReport } from './types.js';

/** An endpoint to check: its URL, or a fetch handler run in-process with no port. */
export type ConformanceTarget = string | URL | ((request: Request) => Response | Promise<Response>);

/** The CLI's flags in camelCase, without the URL (the target gives it). */
export type AssertConformantOptions = Omit<ConformanceOptions, 'url' | 'fetch'>;

/** The error {@link assertConformant} throws: each failed check with its repro, and the report. */
export class ConformanceError extends Error {
  override readonly name = 'AssertionError';
  constructor(
    message: string,
    readonly report: ConformanceReport,
  ) {
    super(message);
  }
}

// The URL a fetch handler is called with: it never leaves the process.
const IN_PROCESS_URL = 'http://in-process.invalid/verify';

/**
 * Runs the conformance battery against `target` and throws an assertion error listing each failed
 * check, why, and a curl line to reproduce it; resolves with the report when nothing failed.
 * Works from any test runner (vitest, jest, `node:test`): it only throws.
 *
 * @example
 * import { assertConformant } from '@questkit/conformance';
 * import { createVerifier, ok } from '@questkit/core';
 *
 * test('the endpoint passes the platform checks', async () => {
 *   const verifier = createVerifier({ apiKey: 'test-key', verify: () => ok() });
 *   await assertConformant(verifier.fetch, { apiKey: 'test-key' });
 * });
 */
export async function assertConformant(
  target: ConformanceTarget,
  options: AssertConformantOptions = {},
): Promise<ConformanceReport> {
  const handler = typeof target === 'function' ? target : undefined;
  const report = await runConformance({
    ...options,
    url: handler ? IN_PROCESS_URL : String(target),
    ...(handler
      ? {
          fetch: async (input: string | URL | Request, init?: RequestInit) =>
            handler(new Request(input, init)),
        }
      : {}),
  });
  if (report.summary.ok) return report;
  const where = handler ? 'the fetch handler' : String(target);
  if (report.summary.verdict === 'not_judged') {
    const why = [report.summary.headline, ...report.summary.advice].filter(Boolean);
    throw new ConformanceError(
      `the conformance run could not judge ${where}:\n${why.map((line) => `  ${line}`).join('\n')}`,
      report,
    );
  }
  const counted = (check: ConformanceReport['checks'][number]) =>
    check.tier !== 'hardening' || report.strict;
  const failed = report.checks.filter((check) => check.status === 'fail' && counted(check));
  const lines = failed.map((check) => {
    const why = check.findings
      .filter((finding) => finding.severity === 'error')
      .map((finding) => `    ${finding.message}`);
    const repro = check.curl && !handler ? [`    repro: ${check.curl}`] : [];
    return [`  ${check.id}: ${check.title}`, ...why, ...repro].join('\n');
  });
  throw new ConformanceError(
    `${failed.length} conformance check${failed.length === 1 ? '' : 's'} failed for ${where}:\n${lines.join('\n')}`,
    report,
  );
}
