import { mockCommand as mock } from '@questkit/mock-platform';
import type { Command } from '../command.js';

/**
 * `questkit mock`: the mock platform's own command line, run as is. Its flags and their
 * environment twins are defined once, in `@questkit/mock-platform`, so they cannot drift apart.
 */
export const mockCommand: Command = {
  name: mock.name,
  summary: mock.summary,
  usage: 'mock [options]',
  description: 'Runs the reference mock platform on a local port.',
  flags: [],
  runArgs: (argv, io) =>
    mock.run(
      argv,
      { ...io.env },
      {
        stdout: (text) => void io.stdout.write(text),
        stderr: (text) => void io.stderr.write(text),
      },
    ),
};
