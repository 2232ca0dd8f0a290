#!/usr/bin/env node
/**
 * @module
 * The `questkit` binary: runs {@link main} on the real process and sets the exit code.
 */
import { main } from './main.js';
import { nodeIo } from './node-io.js';

// No top-level await: this entry is also built as CommonJS.
main(process.argv.slice(2), nodeIo()).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`questkit: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
