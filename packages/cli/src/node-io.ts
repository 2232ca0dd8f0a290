import { writeFile } from 'node:fs/promises';
import type { CliIo } from './io.js';

/**
 * The real process: its streams, environment, file system and SIGINT.
 *
 * @example
 * process.exitCode = await main(['check', 'http://localhost:4010/verify'], nodeIo());
 */
export function nodeIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    writeFile: (path, text) => writeFile(path, text, 'utf8'),
    onInterrupt: (listener) => {
      process.once('SIGINT', listener);
      return () => process.off('SIGINT', listener);
    },
  };
}
