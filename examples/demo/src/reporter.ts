/** Prints the demo's story: numbered steps, details, and a check mark or a cross per expectation. */
export interface Reporter {
  /** A line of its own, unindented. */
  line(text?: string): void;
  /** Starts a numbered step. */
  step(title: string): void;
  /** A detail of the current step. */
  detail(text: string): void;
  /** An expectation of the current step: a check mark when met, a cross when not. */
  expect(met: boolean, text: string): boolean;
  /** Whether every expectation of the current step was met so far. */
  readonly stepOk: boolean;
}

const GREEN = '\u001b[32m';
const RED = '\u001b[31m';
const DIM = '\u001b[2m';
const BOLD = '\u001b[1m';
const RESET = '\u001b[0m';

/**
 * A reporter writing through `write` (one call per line, newline included), with ANSI colors
 * when `color` is set.
 *
 * @example
 * const reporter = createReporter((text) => process.stdout.write(text), process.stdout.isTTY);
 * reporter.step('Create a quest');
 * reporter.expect(true, 'the automatic checks pass');
 */
export function createReporter(write: (text: string) => void, color: boolean): Reporter {
  const paint = (code: string, text: string) => (color ? `${code}${text}${RESET}` : text);
  let steps = 0;
  let stepOk = true;
  return {
    line: (text = '') => write(`${text}\n`),
    step(title) {
      steps += 1;
      stepOk = true;
      write(`\n${paint(BOLD, `${steps}. ${title}`)}\n`);
    },
    detail: (text) => write(`   ${paint(DIM, text)}\n`),
    expect(met, text) {
      if (!met) stepOk = false;
      write(`   ${met ? paint(GREEN, '✓') : paint(RED, '✗')} ${text}\n`);
      return met;
    },
    get stepOk() {
      return stepOk;
    },
  };
}

// Long query values (signatures, state tokens, encoded callbacks) are cut so a hop fits a line;
// the signature is cut hardest, so the printed line could not be replayed.
const MAX_VALUE = 36;

/**
 * A URL as a line of the story, long query values cut. An origin listed in `labels` is shown as
 * its label (`platform:/__mock/connect/start?...`).
 */
export function showUrl(url: string, labels: Readonly<Record<string, string>> = {}): string {
  const parsed = new URL(url);
  const parts: string[] = [];
  const labelled = (value: string) => {
    for (const [from, label] of Object.entries(labels)) {
      if (value.startsWith(from)) return `${label}:${value.slice(from.length)}`;
    }
    return value;
  };
  for (const [name, raw] of parsed.searchParams) {
    const limit = name === 'signature' || name === 'state' ? 8 : MAX_VALUE;
    const value = labelled(raw);
    const shown = value.length > limit ? `${value.slice(0, limit)}…` : value;
    parts.push(`${name}=${shown}`);
  }
  return `${labelled(parsed.origin)}${parsed.pathname}${parts.length > 0 ? `?${parts.join('&')}` : ''}`;
}

/** A value as JSON, for a line of the story. */
export function quote(value: unknown): string {
  return JSON.stringify(value);
}
