import { basename, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import * as prompts from '@clack/prompts';
import { projectFiles, TargetNotEmptyError, writeProject } from './generate.js';
import {
  closest,
  FRAMEWORK_TITLES,
  FRAMEWORKS,
  type Framework,
  IDENTIFICATION_METHODS,
  type IdentificationMethod,
  nameProblem,
  type ProjectOptions,
  parseFramework,
  parseRequires,
  UsageError,
} from './options.js';
import { localPackages } from './packages.js';

/** Exit statuses: done, failed (a folder refused, a write failed, a prompt cancelled), usage error. */
export const EXIT_OK = 0;
/** The project was not written: the folder was refused, a write failed, or the prompt was cancelled. */
export const EXIT_FAILED = 1;
/** A mistake in the command line: an unknown flag, framework or method, a bad name. */
export const EXIT_USAGE = 2;

/** The usage text of `create-questkit --help`. */
export const USAGE = `Usage: npm create questkit@latest [directory] -- [options]
       create-questkit [directory] [options]

Writes a community verification endpoint project: the endpoint with a verify to fill in, its
tests (judged by questkit's conformance battery), a CI workflow, .env.example and a README.
Asks in a terminal; every question has a flag, so it also runs unattended.

Options:
  -f, --framework <name>   ${FRAMEWORKS.join(', ')}
      --requires <list>    identification methods every claim must carry: ${IDENTIFICATION_METHODS.join(', ')},
                           comma-separated, or none (default email; svc-connect with --connect)
      --connect            add the identity-connect flow (/connect) and a signed session
      --webhooks           add the webhook receiver (/webhooks)
      --name <name>        the package name (default: the directory's name)
      --force              write into a folder that is not empty, over the project's own files
      --packages <dir>     install the @questkit packages from the tarballs in <dir> (pnpm pack:all)
                           instead of the registry: file: specs for those the project uses
  -y, --yes                ask nothing: the defaults for what no flag says
  -h, --help               show this help
  -v, --version            show the version`;

const FLAGS = {
  framework: { type: 'string', short: 'f' },
  requires: { type: 'string' },
  connect: { type: 'boolean' },
  webhooks: { type: 'boolean' },
  name: { type: 'string' },
  force: { type: 'boolean' },
  packages: { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

/** Where {@link run} reads and writes. */
export interface RunIo {
  /** Ask the missing answers with prompts (a terminal on both ends). */
  interactive: boolean;
  /** The folder a relative directory is taken from. */
  cwd: string;
  /** Writes to standard output: the help, the version, the files written and the next steps. */
  stdout: (text: string) => void;
  /** Writes to standard error: what went wrong. */
  stderr: (text: string) => void;
  /** The generator's version, for `--version`. */
  version: string;
}

function parse(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: FLAGS, allowPositionals: true, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message.split('. ')[0]! : String(error);
    const typed = /'-{1,2}([^'=]+)/.exec(message)?.[1];
    const guess = typed === undefined ? undefined : closest(typed, Object.keys(FLAGS));
    throw new UsageError(`${message}${guess ? ` (did you mean --${guess}?)` : ''}`);
  }
}

/**
 * The generator as a function: parses `argv`, asks what is missing when `io.interactive`, writes
 * the project and prints the next steps. Resolves with the exit status.
 *
 * @example
 * const status = await run(['my-app', '--framework', 'hono', '--yes'], {
 *   interactive: false, cwd: process.cwd(), version: '0.1.0',
 *   stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text),
 * });
 */
export async function run(argv: readonly string[], io: RunIo): Promise<number> {
  let options: ProjectOptions;
  let directory: string;
  let force: boolean;
  try {
    const { values, positionals } = parse(argv);
    if (values.help) {
      io.stdout(`${USAGE}\n`);
      return EXIT_OK;
    }
    if (values.version) {
      io.stdout(`${io.version}\n`);
      return EXIT_OK;
    }
    if (positionals.length > 1) {
      throw new UsageError(`one directory, not ${positionals.length}: ${positionals.join(' ')}`);
    }
    const ask = io.interactive && !values.yes;
    // Flags first, all of them: a mistake is reported before any question is asked.
    let framework: Framework | undefined =
      values.framework === undefined ? undefined : parseFramework(values.framework);
    let requires: IdentificationMethod[] | undefined =
      values.requires === undefined ? undefined : parseRequires(values.requires);
    if (values.name !== undefined) {
      const problem = nameProblem(values.name);
      if (problem) throw new UsageError(`--name: ${problem}`);
    }
    directory = positionals[0] ?? '';
    if (directory !== '' && values.name === undefined) {
      const problem = nameProblem(basename(resolve(io.cwd, directory)));
      if (problem) throw new UsageError(`${problem}; or give the package name with --name`);
    }
    force = values.force ?? false;
    if (!ask) {
      if (directory === '') throw new UsageError('give the directory to create, e.g. my-app');
      if (!framework) {
        throw new UsageError(
          `give --framework (${FRAMEWORKS.join(', ')}): there is no terminal to ask in`,
        );
      }
    }
    let connect = values.connect;
    let webhooks = values.webhooks;
    if (ask) {
      prompts.intro('create-questkit');
      if (directory === '') {
        const typed = await prompts.text({
          message: 'Where should the project go?',
          placeholder: 'my-community-endpoint',
          defaultValue: 'my-community-endpoint',
          validate: (value) =>
            value && values.name === undefined
              ? nameProblem(basename(resolve(io.cwd, value)))
              : undefined,
        });
        if (prompts.isCancel(typed)) return cancel(io);
        directory = typed || 'my-community-endpoint';
      }
      if (!framework) {
        const picked = await prompts.select<Framework>({
          message: 'Which framework?',
          options: FRAMEWORKS.map((value) => ({ value, label: FRAMEWORK_TITLES[value] })),
        });
        if (prompts.isCancel(picked)) return cancel(io);
        framework = picked;
      }
      if (connect === undefined) {
        const picked = await prompts.confirm({
          message: 'Add the identity-connect flow (members link their account on your site)?',
          initialValue: false,
        });
        if (prompts.isCancel(picked)) return cancel(io);
        connect = picked;
      }
      if (!requires) {
        const picked = await prompts.multiselect<IdentificationMethod>({
          message: "Which accounts must every claim carry (the task's identification methods)?",
          options: IDENTIFICATION_METHODS.map((value) => ({ value, label: value })),
          initialValues: [connect ? 'svc-connect' : 'email'],
          required: false,
        });
        if (prompts.isCancel(picked)) return cancel(io);
        requires = IDENTIFICATION_METHODS.filter((method) => picked.includes(method));
      }
      if (webhooks === undefined) {
        const picked = await prompts.confirm({
          message: 'Add the webhook receiver (deliveries of platform events)?',
          initialValue: false,
        });
        if (prompts.isCancel(picked)) return cancel(io);
        webhooks = picked;
      }
    }
    connect ??= false;
    options = {
      name: values.name ?? basename(resolve(io.cwd, directory)),
      framework: framework!,
      requires: requires ?? [connect ? 'svc-connect' : 'email'],
      connect,
      webhooks: webhooks ?? false,
      ...(values.packages === undefined
        ? {}
        : {
            packages: localPackages(resolve(io.cwd, values.packages), resolve(io.cwd, directory)),
          }),
    };
    // A missing tarball is a usage error, reported before anything is written.
    projectFiles(options);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`create-questkit: ${error.message}\nRun create-questkit --help for the options.\n`);
    return EXIT_USAGE;
  }
  let written: string[];
  try {
    written = await writeProject(resolve(io.cwd, directory), options, { force });
  } catch (error) {
    if (!(error instanceof TargetNotEmptyError)) throw error;
    io.stderr(`create-questkit: ${error.message}\n`);
    return EXIT_FAILED;
  }
  const where = relative(io.cwd, resolve(io.cwd, directory)) || '.';
  io.stdout(
    `Wrote ${written.length} files of a ${FRAMEWORK_TITLES[options.framework]} project in ${where}:\n${written.map((file) => `  ${file}`).join('\n')}\n\nNext:\n${where === '.' ? '' : `  cd ${shellQuoted(where)}\n`}  npm install\n  cp .env.example .env   # and fill it in\n  npm test\n  npm run dev\nREADME.md walks through configuring the task on the platform and deploying.\n`,
  );
  return EXIT_OK;
}

/** `path` as one POSIX shell word: single-quoted (nothing inside is expanded) unless plainly safe. */
export function shellQuoted(path: string): string {
  return /^[\w./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}

function cancel(io: RunIo): number {
  prompts.cancel('Cancelled: nothing was written.');
  io.stderr('');
  return EXIT_FAILED;
}
