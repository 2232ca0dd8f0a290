import { UsageError } from './errors.js';
import type { ParsedFlags } from './flags.js';

/**
 * `value` when it is an http(s) URL; otherwise a usage error that names where it came from
 * (`source`: a flag, an environment variable, "the URL").
 */
export function httpUrl(value: string, source: string): string {
  // "localhost:3000/verify" parses as a URL of scheme "localhost:": say what is missing.
  const hint = value.includes('://')
    ? ''
    : ` (no scheme: add http:// or https://, as in "http://${value.replace(/^\/+/, '')}")`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${source} is not a URL: "${value}"${hint}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${source} must be an http:// or https:// URL: "${value}"${hint}`);
  }
  return value;
}

/**
 * The URL a check runs against: the one positional argument, or the environment variable
 * `envName`; a usage error names what is missing (`what`, e.g. "the endpoint URL") or wrong.
 */
export function urlArgument(
  positionals: ParsedFlags['positionals'],
  env: Readonly<Record<string, string | undefined>>,
  envName: string,
  what: string,
): string {
  if (positionals.length > 1) {
    throw new UsageError(`expected one URL, got ${positionals.length}: ${positionals.join(' ')}`);
  }
  const raw = positionals[0] ?? (env[envName] || undefined);
  if (raw === undefined) throw new UsageError(`${what} is missing`);
  return httpUrl(raw, positionals[0] !== undefined ? 'the URL' : envName);
}
