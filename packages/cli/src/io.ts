/** A stream the CLI writes to. */
export interface OutputStream {
  /** Writes text as is (no newline added). */
  write(text: string): unknown;
  /** true when it is a terminal: colors and a live progress line. */
  isTTY?: boolean;
}

/**
 * Everything the CLI touches outside itself, so commands stay testable: output streams, the
 * environment, file writes and Ctrl-C.
 */
export interface CliIo {
  stdout: OutputStream;
  stderr: OutputStream;
  env: Readonly<Record<string, string | undefined>>;
  /** Writes a whole file (UTF-8). */
  writeFile(path: string, text: string): Promise<void>;
  /** Calls `listener` on the first Ctrl-C; returns a function that stops listening. */
  onInterrupt(listener: () => void): () => void;
}
