import type { CliIo } from './io.js';

/** A {@link CliIo} that records what a command writes, for in-process tests of the CLI. */
export interface FakeIo extends CliIo {
  out: string[];
  err: string[];
  /** Files written, by path. */
  files: Map<string, string>;
  /** The Ctrl-C listener while one is registered. */
  interrupt?: () => void;
}

/** Options of {@link fakeIo}. */
export interface FakeIoOptions {
  /** Both streams say they are a terminal. */
  tty?: boolean;
  env?: Record<string, string>;
  /** Called on every write to stderr. */
  onErr?: (text: string, io: FakeIo) => void;
  /** Makes every file write fail with this error. */
  writeError?: Error;
}

/** Streams, environment and files in memory: no process, no terminal, no disk. */
export function fakeIo(options: FakeIoOptions = {}): FakeIo {
  const io: FakeIo = {
    out: [],
    err: [],
    files: new Map(),
    stdout: { write: (text: string) => io.out.push(text), isTTY: options.tty === true },
    stderr: {
      write: (text: string) => {
        io.err.push(text);
        options.onErr?.(text, io);
      },
      isTTY: options.tty === true,
    },
    env: options.env ?? {},
    writeFile: async (path, text) => {
      if (options.writeError) throw options.writeError;
      io.files.set(path, text);
    },
    onInterrupt: (listener) => {
      io.interrupt = listener;
      return () => {
        io.interrupt = undefined;
      };
    },
  };
  return io;
}
