import type { FlagSpec } from '../../flags.js';

// Defaults of the mock platform, restated here so that `questkit mock --help` needs no import of
// the mock (an optional dependency); its tests check them against the mock's own constants.
export const MOCK_DEFAULT_PORT = 4000;
export const MOCK_DEFAULT_SEED = 100;
export const MOCK_DEFAULT_RATE_LIMIT = 50;
export const MOCK_DEFAULT_VERIFY_ENDPOINT = 'http://127.0.0.1:4010/verify';

// A date, or a date-time with its zone: a time without one would be read in the machine's zone.
const ISO_DATE_TIME =
  /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/i;

// A date-time without its zone: refused with the way to say it, not read in the machine's zone.
const ZONELESS_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?$/i;

/** What is wrong with a `--clock` value, undefined when it is fine. */
export function clockProblem(value: string): string | undefined {
  if (parseClock(value)) return undefined;
  if (ZONELESS_DATE_TIME.test(value.trim()))
    return 'a date-time with its zone: add Z for UTC or an offset such as +02:00 (2025-06-01T12:00:00Z)';
  return 'system, manual or an ISO 8601 date-time (2025-06-01T12:00:00Z)';
}

/** What is wrong with a URL flag's value (an absolute http(s) URL), undefined when it is fine. */
export function httpUrlProblem(value: string): string | undefined {
  const protocol = URL.canParse(value) ? new URL(value).protocol : '';
  return protocol === 'http:' || protocol === 'https:'
    ? undefined
    : 'an absolute http:// or https:// URL such as http://127.0.0.1:4010/verify';
}

/** What `--clock` asks for: the system clock, or a manual clock and where it starts. */
export type ClockChoice = { kind: 'system' } | { kind: 'manual'; start?: Date };

/** Reads a `--clock` value; undefined when it is none of `system`, `manual` or an ISO date-time. */
export function parseClock(value: string): ClockChoice | undefined {
  const text = value.trim();
  if (text.toLowerCase() === 'system') return { kind: 'system' };
  if (text.toLowerCase() === 'manual') return { kind: 'manual' };
  const at = ISO_DATE_TIME.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? undefined : { kind: 'manual', start: new Date(at) };
}

/** The flags of `questkit mock`; each has an environment variable twin (the flag wins). */
export const MOCK_FLAGS: readonly FlagSpec[] = [
  {
    name: 'port',
    type: 'integer',
    min: 0,
    max: 65535,
    env: 'QUESTKIT_MOCK_PORT',
    placeholder: '<n>',
    defaultText: String(MOCK_DEFAULT_PORT),
    description: 'Port to listen on (0 picks a free port)',
  },
  {
    name: 'host',
    type: 'string',
    env: 'QUESTKIT_MOCK_HOST',
    placeholder: '<host>',
    defaultText: '127.0.0.1',
    description: 'Interface to bind',
  },
  {
    name: 'api-key',
    type: 'string',
    env: 'QUESTKIT_MOCK_API_KEY',
    placeholder: '<key>',
    defaultText: 'the built-in demo key',
    description: "The demo community's read-write API key (never echoed)",
  },
  {
    name: 'seed',
    type: 'integer',
    min: 0,
    max: 10_000_000,
    env: 'QUESTKIT_MOCK_SEED',
    placeholder: '<n>',
    defaultText: String(MOCK_DEFAULT_SEED),
    description: 'Generated demo users, added to the named ones',
  },
  {
    name: 'fixtures',
    type: 'string',
    env: 'QUESTKIT_MOCK_FIXTURES',
    placeholder: '<file>',
    description:
      'Load the state from this JSON file (as written by --save) instead of the demo seed',
  },
  {
    name: 'save',
    type: 'string',
    env: 'QUESTKIT_MOCK_SAVE',
    placeholder: '<file>',
    description: 'Write the state to this JSON file on exit',
  },
  {
    name: 'credentials-file',
    type: 'string',
    env: 'QUESTKIT_MOCK_CREDENTIALS_FILE',
    placeholder: '<file>',
    defaultText: 'printed once in the banner',
    description:
      'Beyond loopback, where to write the random keys and secrets that replace the published demo ones (JSON, mode 0600)',
  },
  {
    name: 'public-url',
    type: 'string',
    env: 'QUESTKIT_MOCK_PUBLIC_URL',
    placeholder: '<url>',
    defaultText: 'where it listens',
    description:
      'The public URL of the mock, where connect callbacks point (never the Host header)',
    check: httpUrlProblem,
  },
  {
    name: 'verify-endpoint',
    type: 'string',
    env: 'QUESTKIT_MOCK_VERIFY_ENDPOINT',
    placeholder: '<url>',
    defaultText: MOCK_DEFAULT_VERIFY_ENDPOINT,
    description: "The endpoint the demo quests' API tasks call: your app's verification URL",
    check: httpUrlProblem,
  },
  {
    name: 'allowed-hosts',
    type: 'string',
    env: 'QUESTKIT_MOCK_ALLOWED_HOSTS',
    placeholder: '<names>',
    defaultText: 'loopback names and the bound address',
    description: 'More Host names to answer, comma-separated (others get a 403: DNS rebinding)',
  },
  {
    name: 'no-control',
    type: 'boolean',
    env: 'QUESTKIT_MOCK_NO_CONTROL',
    description: 'Turn the /__mock/ control routes off',
  },
  {
    name: 'clock',
    type: 'string',
    env: 'QUESTKIT_MOCK_CLOCK',
    placeholder: '<mode>',
    defaultText: 'system',
    description:
      'Platform clock: system, manual (stands still until POST /__mock/clock/advance) or an ISO date-time (manual, starting there)',
    check: clockProblem,
  },
  {
    name: 'rate-limit',
    type: 'integer',
    min: 0,
    max: 1_000_000,
    env: 'QUESTKIT_MOCK_RATE_LIMIT',
    placeholder: '<n>',
    defaultText: String(MOCK_DEFAULT_RATE_LIMIT),
    description: 'Requests per second per credential (token bucket); 0 disables',
  },
  {
    name: 'verbose',
    type: 'boolean',
    env: 'QUESTKIT_MOCK_VERBOSE',
    description: 'List every control route with a curl example in the banner',
  },
];
