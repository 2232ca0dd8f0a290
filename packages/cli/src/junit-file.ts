import { UsageError } from './errors.js';
import type { CliIo } from './io.js';

/** Writes a JUnit report for `--junit`; a path that cannot be written is a usage error (exit 2). */
export async function writeJunit(io: CliIo, path: string, xml: string): Promise<void> {
  try {
    await io.writeFile(path, xml);
  } catch (error) {
    const reason = (error as { code?: string }).code ?? (error as Error).message;
    throw new UsageError(`cannot write the JUnit report to ${path} (${reason})`);
  }
}
