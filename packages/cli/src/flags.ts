import { parseArgs } from 'node:util';
import { closest } from '@questkit/conformance';
import { UsageError } from './errors.js';

/** One flag of a command. Every flag can have an environment twin, read when the flag is absent. */
export interface FlagSpec {
  /** The long name, without dashes: `api-key`. */
  name: string;
  type: 'string' | 'boolean' | 'integer';
  short?: string;
  /** The environment variable read when the flag is not given: `QUEST_API_KEY`. */
  env?: string;
  /** The value's placeholder in the help: `<key>`. */
  placeholder?: string;
  /** The default, as shown in the help and the README. */
  defaultText?: string;
  description: string;
  /** Bounds of an `integer` flag; by default a positive integer. */
  min?: number;
  max?: number;
  /** Checks a `string` flag's value: what it must be when it is wrong, undefined when it is fine. */
  check?: (value: string) => string | undefined;
  /** A `string` flag whose empty value means something (`--identifications ''`: none). */
  emptyMeans?: string;
}

/** A flag's value after parsing: a string, true, or a positive integer. */
export type FlagValue = string | boolean | number;

/** The result of {@link parseFlags}. */
export interface ParsedFlags {
  values: Partial<Record<string, FlagValue>>;
  positionals: string[];
}

/** The `--help` flag every command has. */
export const HELP_FLAG: FlagSpec = {
  name: 'help',
  short: 'h',
  type: 'boolean',
  description: 'Show this help',
};

const FALSE_WORDS = new Set(['', '0', 'false', 'no', 'off']);

function toValue(flag: FlagSpec, raw: string | boolean, source: string): FlagValue {
  if (flag.type === 'boolean') {
    return typeof raw === 'boolean' ? raw : !FALSE_WORDS.has(raw.trim().toLowerCase());
  }
  const text = String(raw);
  if (flag.type === 'integer') {
    const min = flag.min ?? 1;
    const max = flag.max ?? Number.MAX_SAFE_INTEGER;
    const value = Number(text);
    const bounded = flag.min !== undefined || flag.max !== undefined;
    const valid = /^\d+$/.test(text.trim()) && Number.isSafeInteger(value);
    if (!valid || value < min || value > max) {
      const range = bounded ? `an integer from ${min} to ${max}` : 'a positive integer';
      throw new UsageError(`${source} must be ${range}, got "${text}"`);
    }
    return value;
  }
  if (text === '' && flag.emptyMeans === undefined) {
    // `--api-key "$QUEST_API_KEY"` with the variable unset in this shell arrives empty.
    const hint =
      flag.env && source.startsWith('--')
        ? `: it is empty, as a shell variable that is not set (such as "$${flag.env}") expands to nothing; set it, or leave the flag out and questkit reads ${flag.env} itself`
        : '';
    throw new UsageError(`${source} needs a value${hint}`);
  }
  const problem = flag.check?.(text);
  if (problem !== undefined) throw new UsageError(`${source} must be ${problem}, got "${text}"`);
  return text;
}

/**
 * Parses `argv` against the command's flags (strictly: an unknown flag is a usage error), then
 * fills each missing flag from its environment twin.
 */
export function parseFlags(
  flags: readonly FlagSpec[],
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): ParsedFlags {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const flag of flags) {
    options[flag.name] = {
      type: flag.type === 'boolean' ? 'boolean' : 'string',
      ...(flag.short ? { short: flag.short } : {}),
    };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      options,
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
  } catch (error) {
    // Node's messages carry a long hint after the first sentence; the first says what is wrong.
    const message = error instanceof Error ? error.message.split('. ')[0] : String(error);
    throw new UsageError(`${message ?? 'invalid arguments'}${didYouMean(error, flags)}`);
  }
  const seen = new Set<string>();
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== 'option') continue;
    // parseArgs keeps the last of repeated values silently; a repeated flag is more likely a mistake.
    if (seen.has(token.name)) throw new UsageError(`--${token.name} is given more than once`);
    seen.add(token.name);
  }
  const values: Partial<Record<string, FlagValue>> = {};
  for (const flag of flags) {
    const given = parsed.values[flag.name];
    if (given !== undefined && typeof given !== 'object') {
      values[flag.name] = toValue(flag, given, `--${flag.name}`);
      continue;
    }
    const fromEnv = flag.env ? env[flag.env] : undefined;
    if (flag.env && fromEnv !== undefined && fromEnv !== '') {
      values[flag.name] = toValue(flag, fromEnv, flag.env);
    }
  }
  return { values, positionals: parsed.positionals };
}

/** " (did you mean --api-key?)" for an unknown flag close to a known one, else nothing. */
function didYouMean(error: unknown, flags: readonly FlagSpec[]): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || typeof message !== 'string') return '';
  const typed = /'-{1,2}([^'=]+)/.exec(message)?.[1];
  const known =
    typed === undefined
      ? undefined
      : closest(
          typed,
          flags.map((flag) => flag.name),
        );
  return known === undefined ? '' : ` (did you mean --${known}?)`;
}

/** The options section of a command's help: flag, description, default, environment twin. */
export function formatFlags(flags: readonly FlagSpec[]): string {
  const left = flags.map((flag) => {
    const short = flag.short ? `-${flag.short}, ` : '    ';
    const value =
      flag.type === 'boolean'
        ? ''
        : ` ${flag.placeholder ?? (flag.type === 'integer' ? '<n>' : '<value>')}`;
    return `  ${short}--${flag.name}${value}`;
  });
  const width = Math.max(...left.map((text) => text.length)) + 2;
  return flags
    .map((flag, i) => {
      const extras = [
        flag.defaultText !== undefined ? `default ${flag.defaultText}` : '',
        flag.env ? `env ${flag.env}` : '',
      ].filter(Boolean);
      const suffix = extras.length > 0 ? ` (${extras.join('; ')})` : '';
      return `${left[i]!.padEnd(width)}${flag.description}${suffix}`;
    })
    .join('\n');
}
