import type { Command } from '../command.js';

const MOCK_PACKAGE = '@questkit/mock-platform';

/**
 * `questkit mock`: the mock platform's own command line, run as is. Its flags and their
 * environment twins are defined once, in `@questkit/mock-platform`, so they cannot drift apart.
 *
 * The mock is an optional peer dependency, loaded only here: `questkit check` in an app's CI
 * must not install the mock's HTTP server stack.
 */
export const mockCommand: Command = {
  name: 'mock',
  summary: 'Run the mock platform (public API, control routes, docs) on a local port',
  usage: 'mock [options]',
  description: 'Runs the reference mock platform on a local port.',
  flags: [],
  async runArgs(argv, io) {
    let mock: typeof import('@questkit/mock-platform').mockCommand;
    try {
      ({ mockCommand: mock } = await import(MOCK_PACKAGE));
    } catch (error) {
      if (!isMissing(error)) throw error;
      io.stderr.write(
        `questkit mock: ${MOCK_PACKAGE} is not installed.\nInstall it beside questkit: npm install --save-dev ${MOCK_PACKAGE}\n`,
      );
      return 1;
    }
    return mock.run(
      argv,
      { ...io.env },
      {
        stdout: (text) => void io.stdout.write(text),
        stderr: (text) => void io.stderr.write(text),
      },
    );
  },
};

function isMissing(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    message.includes(MOCK_PACKAGE)
  );
}
