import { type FlagSpec, formatFlags, HELP_FLAG, type ParsedFlags } from './flags.js';
import type { CliIo } from './io.js';

/** One `questkit` subcommand. Register it in `commands/index.ts`. */
export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** The usage line after `questkit`: `check <url> [options]`. */
  usage: string;
  /** A paragraph for the command's help. */
  description: string;
  /** The flags besides `--help`, which every command has. */
  flags: readonly FlagSpec[];
  /** Extra help text after the options (exit codes, examples). */
  epilog?: string;
  /**
   * Runs the command with its flags parsed (environment twins filled in, `--help` already
   * handled); returns the exit code. Throw a UsageError for a bad combination of flags.
   */
  run?(parsed: ParsedFlags, io: CliIo): Promise<number>;
  /**
   * Instead of `run`: takes the raw arguments and parses its own flags and `--help`, for a
   * command whose package already defines its command line (`mock`).
   */
  runArgs?(argv: readonly string[], io: CliIo): Promise<number>;
}

/** The full help of a command. */
export function formatCommandHelp(command: Command): string {
  return [
    `Usage: questkit ${command.usage}`,
    '',
    command.description,
    '',
    'Options:',
    formatFlags([...command.flags, HELP_FLAG]),
    ...(command.epilog ? ['', command.epilog] : []),
    '',
  ].join('\n');
}
