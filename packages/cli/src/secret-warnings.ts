import type { FlagSpec, ParsedFlags } from './flags.js';

/** Flags whose value is a secret: an API key, a connect or webhook secret. */
const SECRET_FLAGS = new Set(['api-key', 'secret']);

const LOOPBACK = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/i;

/**
 * Warnings, never naming a value, for a secret given on the command line (every user of the
 * machine can read it with `ps`, and shell history keeps it: its environment twin is safer) and
 * for a secret sent over plain http beyond loopback (anyone on the way reads it).
 */
export function secretWarnings(
  flags: readonly FlagSpec[],
  argv: readonly string[],
  positionals: readonly string[],
  values: ParsedFlags['values'],
): string[] {
  const warnings: string[] = [];
  const secrets = flags.filter((flag) => SECRET_FLAGS.has(flag.name));
  for (const flag of secrets) {
    const given = argv.some((arg) => arg === `--${flag.name}` || arg.startsWith(`--${flag.name}=`));
    if (given) {
      warnings.push(
        `Warning: --${flag.name} on the command line can be read by other users of this machine (ps) and stays in your shell history: set ${flag.env ?? 'its environment variable'} instead.`,
      );
    }
  }
  const carried = secrets.filter((flag) => typeof values[flag.name] === 'string');
  if (carried.length === 0) return warnings;
  for (const positional of positionals) {
    let url: URL;
    try {
      url = new URL(positional);
    } catch {
      continue;
    }
    if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname)) {
      const what = carried.map((flag) => (flag.name === 'api-key' ? 'the API key' : 'the secret'));
      warnings.push(
        `Warning: plain http to ${url.hostname}: ${what.join(' and ')} travel unencrypted, readable by anyone on the way. Use https beyond this machine.`,
      );
    }
  }
  return warnings;
}
