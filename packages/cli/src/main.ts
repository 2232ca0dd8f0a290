import { closest } from '@questkit/conformance';
import { type Command, formatCommandHelp } from './command.js';
import { COMMANDS } from './commands/index.js';
import { UsageError } from './errors.js';
import { HELP_FLAG, parseFlags } from './flags.js';
import type { CliIo } from './io.js';
import { secretWarnings } from './secret-warnings.js';

/** Exit code when nothing failed. */
export const EXIT_OK = 0;
/** Exit code when a check failed or the command could not do its work. */
export const EXIT_FAILED = 1;
/** Exit code for a usage error: unknown command or flag, bad value. */
export const EXIT_USAGE = 2;

function formatMainHelp(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return [
    'Usage: questkit <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'Run `questkit <command> --help` for the options of a command, `questkit --version` for the version.',
    '',
  ].join('\n');
}

/**
 * The `questkit` command line: dispatches to a command of {@link COMMANDS} and returns the exit
 * code (0 nothing failed, 1 failed, 2 usage error). Never throws and never prints a stack trace:
 * errors become one line on stderr.
 *
 * @example
 * process.exitCode = await main(process.argv.slice(2), nodeIo());
 */
export async function main(
  argv: readonly string[],
  io: CliIo,
  commands: readonly Command[] = COMMANDS,
  version = 'unknown',
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const stream = name === undefined ? io.stderr : io.stdout;
    stream.write(formatMainHelp(commands));
    return name === undefined ? EXIT_USAGE : EXIT_OK;
  }
  // `--version` works after any command too (`questkit check --version`), before its flags.
  if (name === '--version' || name === '-v' || name === 'version' || rest.includes('--version')) {
    io.stdout.write(`questkit ${version}\n`);
    return EXIT_OK;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    const guess = closest(
      name,
      commands.map((c) => c.name),
    );
    const hint = guess === undefined ? '' : ` (did you mean "${guess}"?)`;
    io.stderr.write(`questkit: unknown command "${name}"${hint}\n\n${formatMainHelp(commands)}`);
    return EXIT_USAGE;
  }
  try {
    if (command.runArgs) return await command.runArgs(rest, io);
    const parsed = parseFlags([...command.flags, HELP_FLAG], rest, io.env);
    if (parsed.values.help === true) {
      io.stdout.write(formatCommandHelp(command));
      return EXIT_OK;
    }
    if (!command.run) throw new TypeError(`[questkit] command ${command.name} has no run()`);
    for (const warning of secretWarnings(command.flags, rest, parsed.positionals, parsed.values)) {
      io.stderr.write(`${warning}\n`);
    }
    return await command.run(parsed, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(
        `questkit ${command.name}: ${error.message}\nUsage: questkit ${command.usage}\nRun \`questkit ${command.name} --help\` for the options.\n`,
      );
      return EXIT_USAGE;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`questkit ${command.name}: ${message}\n`);
    return EXIT_FAILED;
  }
}
