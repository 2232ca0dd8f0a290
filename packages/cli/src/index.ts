/**
 * @module
 * `questkit`: the command line (`questkit check`, and `questkit mock` when it lands) as a library,
 * for tests and for tools that embed it. The binary is `dist/cli.js`.
 */
export type { Command } from './command.js';
export { formatCommandHelp } from './command.js';
export { CHECK_FLAGS, checkCommand, toRunOptions } from './commands/check.js';
export { COMMANDS } from './commands/index.js';
export { UsageError } from './errors.js';
export {
  type FlagSpec,
  type FlagValue,
  formatFlags,
  HELP_FLAG,
  type ParsedFlags,
  parseFlags,
} from './flags.js';
export type { CliIo, OutputStream } from './io.js';
export { EXIT_FAILED, EXIT_OK, EXIT_USAGE, main } from './main.js';
export { nodeIo } from './node-io.js';
