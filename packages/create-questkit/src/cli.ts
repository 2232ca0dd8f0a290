#!/usr/bin/env node
/**
 * @module
 * The `create-questkit` binary (`npm create questkit`): runs {@link run} on the real process.
 */
import { createRequire } from 'node:module';
import { run } from './run.js';

// The binary is built as ESM only, beside the package.json it reads its version from.
const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

run(process.argv.slice(2), {
  interactive: Boolean(process.stdin.isTTY && process.stdout.isTTY),
  cwd: process.cwd(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  version,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `create-questkit: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
