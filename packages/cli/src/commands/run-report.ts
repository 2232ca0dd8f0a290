import { formatProgress, type ProgressEvent } from '@questkit/conformance';
import type { ParsedFlags } from '../flags.js';
import type { CliIo } from '../io.js';
import { writeJunit } from '../junit-file.js';

// The one way `check` and `check-webhook` run: the JUnit placeholder first, progress on stderr,
// Ctrl-C, the run, then the report in the chosen form and the exit code. Each command only says
// how to run its judge and how to format its report.

/** What every judged report has that the runner reads. */
interface Judged {
  unreachable?: string;
  summary: { ok: boolean };
}

/** How one command runs its judge and formats its report. */
export interface ReportCommand<R extends Judged> {
  /** `check`, `check-webhook`: the prefix of its stderr lines. */
  name: string;
  /** What is checked, for the stderr lines. */
  url: string;
  /** The JUnit suite name, for the placeholder written before the run. */
  suite: string;
  run(extra: { signal: AbortSignal; onProgress?: (event: ProgressEvent) => void }): Promise<R>;
  human(report: R, options: { color: boolean; verbose: boolean }): string;
  json(report: R): string;
  junit(report: R): string;
}

// Written before the run, so a path that cannot be written fails at once, not after it; should
// the run never finish, CI shows an error rather than an old green report.
function unfinished(suite: string, name: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${suite}" tests="1" failures="0" errors="1" skipped="0">`,
    `  <testsuite name="questkit ${name}" tests="1" failures="0" errors="1" skipped="0">`,
    `    <testcase classname="questkit.${name}" name="run"><error message="questkit ${name} did not finish"/></testcase>`,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** Runs a judging command and returns its exit code: 0 passed, 1 failed or not judged. */
export async function runReport<R extends Judged>(
  command: ReportCommand<R>,
  parsed: ParsedFlags,
  io: CliIo,
): Promise<number> {
  const { values } = parsed;
  const json = values.json === true;
  const junit = typeof values.junit === 'string' ? values.junit : undefined;
  if (junit !== undefined) await writeJunit(io, junit, unfinished(command.suite, command.name));
  const color = io.stdout.isTTY === true && values['no-color'] !== true;
  const live = io.stderr.isTTY === true && !json;
  // On a terminal one line is redrawn; in a CI log one line says the run started, so that the
  // report below is the one place each check is listed.
  const progress = (event: ProgressEvent) => {
    if (live) {
      const line = formatProgress(event, { color: values['no-color'] !== true });
      io.stderr.write(`\r\u001b[2K${line}`);
    } else if (event.done === 1) {
      io.stderr.write(`questkit ${command.name}: ${event.total} checks against ${command.url}\n`);
    }
  };
  const controller = new AbortController();
  const stopListening = io.onInterrupt(() => controller.abort());
  let report: R;
  try {
    report = await command.run({
      signal: controller.signal,
      ...(json ? {} : { onProgress: progress }),
    });
  } finally {
    stopListening();
    if (live) io.stderr.write('\r\u001b[2K');
  }
  if (report.unreachable !== undefined && json) {
    io.stderr.write(
      `questkit ${command.name}: cannot reach ${command.url}: ${report.unreachable}\n`,
    );
  }
  io.stdout.write(
    json
      ? command.json(report)
      : command.human(report, { color, verbose: values.verbose === true }),
  );
  if (junit !== undefined) await writeJunit(io, junit, command.junit(report));
  return report.summary.ok && !controller.signal.aborted ? 0 : 1;
}
