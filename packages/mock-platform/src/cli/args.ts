import { DEFAULT_RATE_LIMIT_PER_SECOND } from '../limits.js';
import { DEFAULT_GENERATED_USERS } from '../seed/demo.js';

/** One flag of `questkit mock`, with its environment twin. */
export interface MockFlag {
  flag: `--${string}`;
  env: string;
  /** Placeholder of the value. */
  value: string;
  default: string | null;
  description: string;
}

/** The flags of `questkit mock`; each has an environment variable twin (the flag wins). */
export const MOCK_FLAGS = [
  {
    flag: '--port',
    env: 'QUESTKIT_MOCK_PORT',
    value: 'N',
    default: '4000',
    description: 'Port to listen on (0 picks a free port).',
  },
  {
    flag: '--host',
    env: 'QUESTKIT_MOCK_HOST',
    value: 'HOST',
    default: '127.0.0.1',
    description: 'Interface to bind.',
  },
  {
    flag: '--api-key',
    env: 'QUESTKIT_MOCK_API_KEY',
    value: 'KEY',
    default: null,
    description: "The demo community's read-write API key (default the built-in demo key).",
  },
  {
    flag: '--seed',
    env: 'QUESTKIT_MOCK_SEED',
    value: 'N',
    default: String(DEFAULT_GENERATED_USERS),
    description: 'Generated demo users, added to the named ones.',
  },
  {
    flag: '--fixtures',
    env: 'QUESTKIT_MOCK_FIXTURES',
    value: 'FILE',
    default: null,
    description:
      'Load the state from this JSON file (as written by --save) instead of the demo seed.',
  },
  {
    flag: '--save',
    env: 'QUESTKIT_MOCK_SAVE',
    value: 'FILE',
    default: null,
    description: 'Write the state to this JSON file on exit.',
  },
  {
    flag: '--public-url',
    env: 'QUESTKIT_MOCK_PUBLIC_URL',
    value: 'URL',
    default: null,
    description:
      'The public URL of the mock, where connect callbacks point (default where it listens; never the Host header).',
  },
  {
    flag: '--rate-limit',
    env: 'QUESTKIT_MOCK_RATE_LIMIT',
    value: 'N',
    default: String(DEFAULT_RATE_LIMIT_PER_SECOND),
    description: 'Requests per second per credential (token bucket); 0 disables.',
  },
] as const satisfies readonly MockFlag[];

/** A flag name of `questkit mock`. */
export type MockFlagName = (typeof MOCK_FLAGS)[number]['flag'];

/** The settings of one `questkit mock` run. */
export interface MockCliConfig {
  port: number;
  host: string;
  apiKey: string | undefined;
  /** Where the read-write key came from, to say so without echoing it. */
  apiKeySource: 'flag' | 'env' | undefined;
  seedUsers: number;
  fixtures: string | undefined;
  save: string | undefined;
  rateLimit: number;
  publicUrl: string | undefined;
}

/** The outcome of reading the arguments. */
export type MockCliArgs =
  | { kind: 'run'; config: MockCliConfig }
  | { kind: 'help' }
  | { kind: 'error'; message: string };

/** The usage text of `questkit mock`. */
export function mockUsage(command = 'questkit mock'): string {
  const column = 22;
  const rows = MOCK_FLAGS.map((f) => {
    const fallback = f.default === null ? '' : ` (default ${f.default})`;
    const text = `${f.description.replace(/\.$/, '')}${fallback}.`;
    return `${`  ${f.flag} ${f.value}`.padEnd(column)}${text}\n${' '.repeat(column)}env ${f.env}`;
  });
  rows.push(`${'  --help'.padEnd(column)}Show this text.`);
  return `Usage: ${command} [flags]\n\nRuns the questkit mock platform: the public API, /openapi.json and /docs.\n\n${rows.join('\n')}\n`;
}

function integer(name: string, text: string, min: number, max: number): number | string {
  if (!/^\d+$/.test(text)) return `${name} must be an integer, got "${text}"`;
  const value = Number(text);
  if (value < min || value > max) return `${name} must be between ${min} and ${max}`;
  return value;
}

/**
 * Reads `questkit mock` arguments and their environment twins. Accepts `--flag value` and
 * `--flag=value`; a flag beats its environment variable.
 */
export function parseMockArgs(
  argv: readonly string[],
  env: Record<string, string | undefined>,
): MockCliArgs {
  const given = new Map<string, string>();
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    const [name, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const flag = MOCK_FLAGS.find((f) => f.flag === name);
    if (!flag) return { kind: 'error', message: `Unknown argument "${arg}"` };
    const value = inline ?? argv[++index];
    if (value === undefined || value === '') {
      return { kind: 'error', message: `${flag.flag} needs a value (${flag.value})` };
    }
    given.set(flag.flag, value);
  }
  const read = (name: MockFlagName) => {
    const flag = MOCK_FLAGS.find((f) => f.flag === name)!;
    const fromFlag = given.get(flag.flag);
    if (fromFlag !== undefined) return { value: fromFlag, source: 'flag' as const };
    const fromEnv = env[flag.env];
    if (fromEnv !== undefined && fromEnv !== '') return { value: fromEnv, source: 'env' as const };
    return { value: flag.default ?? undefined, source: undefined };
  };
  const port = integer('--port', read('--port').value ?? '', 0, 65535);
  if (typeof port === 'string') return { kind: 'error', message: port };
  const seedUsers = integer('--seed', read('--seed').value ?? '', 0, 10_000_000);
  if (typeof seedUsers === 'string') return { kind: 'error', message: seedUsers };
  const rateLimit = integer('--rate-limit', read('--rate-limit').value ?? '', 0, 1_000_000);
  if (typeof rateLimit === 'string') return { kind: 'error', message: rateLimit };
  const apiKey = read('--api-key');
  return {
    kind: 'run',
    config: {
      port,
      host: read('--host').value ?? '127.0.0.1',
      apiKey: apiKey.value,
      apiKeySource: apiKey.source,
      seedUsers,
      fixtures: read('--fixtures').value,
      save: read('--save').value,
      rateLimit,
      publicUrl: read('--public-url').value,
    },
  };
}
