import { writeFile } from 'node:fs/promises';
import type { CliIo, OutputStream } from './io.js';

/**
 * A process stream that goes quiet once its reader is gone (`questkit check --json | head`):
 * the broken pipe ends the output, not the run, and no error reaches the terminal.
 */
function quietOnClose(stream: NodeJS.WriteStream): OutputStream {
  let closed = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    closed = true;
  });
  return {
    write: (text) => (closed ? false : stream.write(text)),
    get isTTY() {
      return stream.isTTY === true;
    },
  };
}

/**
 * The real process: its streams, environment, file system and SIGINT.
 *
 * @example
 * process.exitCode = await main(['check', 'http://localhost:4010/verify'], nodeIo());
 */
export function nodeIo(): CliIo {
  return {
    stdout: quietOnClose(process.stdout),
    stderr: quietOnClose(process.stderr),
    env: process.env,
    writeFile: (path, text) => writeFile(path, text, 'utf8'),
    onInterrupt: (listener) => {
      process.once('SIGINT', listener);
      return () => process.off('SIGINT', listener);
    },
  };
}
