#!/usr/bin/env node
/**
 * @module
 * The `questkit` binary: runs {@link main} on the real process and sets the exit code.
 */
import { createRequire } from 'node:module';
import { COMMANDS } from './commands/index.js';
import { main } from './main.js';
import { nodeIo } from './node-io.js';

// The binary is built as ESM only, beside the package.json it reads its version from.
const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

main(process.argv.slice(2), nodeIo(), COMMANDS, version).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`questkit: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
