import {
  type ConformanceOptions,
  closest,
  formatHuman,
  formatJson,
  formatJunit,
  runConformance,
} from '@questkit/conformance';
import { AccountsSchema, IDENTIFICATION_METHODS, type IdentificationMethod } from '@questkit/core';
import type { Command } from '../command.js';
import { UsageError } from '../errors.js';
import type { FlagSpec, ParsedFlags } from '../flags.js';
import { httpUrl, urlArgument } from '../url-argument.js';
import { JSON_FLAG, JUNIT_FLAG, NO_COLOR_FLAG } from './report-flags.js';
import { runReport } from './run-report.js';

/** The flags of `questkit check`, each with its environment twin. */
export const CHECK_FLAGS: readonly FlagSpec[] = [
  {
    name: 'api-key',
    type: 'string',
    env: 'QUEST_API_KEY',
    placeholder: '<key>',
    description:
      'The task API key, sent as X-Api-Key; without it (or --no-api-key) the run is NOT JUDGED',
  },
  {
    name: 'no-api-key',
    type: 'boolean',
    env: 'QUESTKIT_NO_API_KEY',
    description: 'The task has no API key: the platform sends none, so none is checked',
  },
  {
    name: 'identifications',
    type: 'string',
    env: 'QUESTKIT_IDENTIFICATIONS',
    placeholder: '<list>',
    defaultText: 'every shape the contract allows',
    emptyMeans: 'none',
    description: `The task's identification methods, comma-separated (${IDENTIFICATION_METHODS.join(', ')}); '' for none: claims are shaped as the platform shapes them for the task`,
  },
  {
    name: 'strict',
    type: 'boolean',
    env: 'QUESTKIT_STRICT',
    description:
      'Hardening findings (requests the platform never sends) fail the run instead of warning',
  },
  {
    name: 'user-id',
    type: 'string',
    env: 'QUESTKIT_USER_ID',
    placeholder: '<id>',
    defaultText: 'a synthetic id',
    description: 'userId of the member the claims are made for',
  },
  {
    name: 'community-id',
    type: 'string',
    env: 'QUESTKIT_COMMUNITY_ID',
    placeholder: '<id>',
    defaultText: 'a synthetic id',
    description: 'communityId of the claims',
  },
  {
    name: 'subdomain',
    type: 'string',
    env: 'QUESTKIT_SUBDOMAIN',
    placeholder: '<name>',
    defaultText: 'questkit-conformance',
    description: 'subdomain of the claims',
  },
  {
    name: 'quest-id',
    type: 'string',
    env: 'QUESTKIT_QUEST_ID',
    placeholder: '<id>',
    defaultText: 'a synthetic id',
    description: 'questId of the claims',
  },
  {
    name: 'accounts',
    type: 'string',
    env: 'QUESTKIT_ACCOUNTS',
    placeholder: '<json>',
    defaultText: 'a sample of every method',
    description:
      'The member\'s accounts as JSON: {"email":"a@b.c","discord":{"id":"1","handle":"h"}}',
  },
  {
    name: 'expect-pass',
    type: 'boolean',
    env: 'QUESTKIT_EXPECT_PASS',
    description: 'The well-formed claim must be claimed (200)',
  },
  {
    name: 'expect-fail',
    type: 'boolean',
    env: 'QUESTKIT_EXPECT_FAIL',
    description: 'The well-formed claim must be refused (400)',
  },
  {
    name: 'timeout',
    type: 'integer',
    env: 'QUESTKIT_TIMEOUT',
    placeholder: '<ms>',
    defaultText: '10000',
    description: "Time limit per request, as the platform's",
  },
  {
    name: 'slow',
    type: 'integer',
    env: 'QUESTKIT_SLOW',
    placeholder: '<ms>',
    defaultText: 'half the time limit',
    description: 'Answers slower than this warn',
  },
  {
    name: 'burst',
    type: 'integer',
    env: 'QUESTKIT_BURST',
    placeholder: '<n>',
    defaultText: '10',
    description: 'Concurrent claims of the burst check (at most 1000)',
  },
  {
    name: 'samples',
    type: 'integer',
    env: 'QUESTKIT_SAMPLES',
    placeholder: '<n>',
    defaultText: '10',
    description: 'Sequential claims of the latency series (at most 1000)',
  },
  {
    name: 'only',
    type: 'string',
    env: 'QUESTKIT_ONLY',
    placeholder: '<ids>',
    defaultText: 'every check',
    description: 'Comma-separated check ids or prefixes to run (auth.,fields.missing)',
  },
  {
    name: 'connect-url',
    type: 'string',
    env: 'QUESTKIT_CONNECT_URL',
    placeholder: '<url>',
    description: "The task's connect redirect URL: runs the connect checks (needs --secret)",
  },
  {
    name: 'secret',
    type: 'string',
    env: 'QUESTKIT_CONNECT_SECRET',
    placeholder: '<secret>',
    description: 'The community connect secret',
  },
  {
    name: 'connect-callback',
    type: 'string',
    env: 'QUESTKIT_CONNECT_CALLBACK',
    placeholder: '<url>',
    defaultText: 'https://platform.invalid/connect/callback',
    description: 'The callback the connect redirect carries',
  },
  {
    name: 'concurrency',
    type: 'integer',
    env: 'QUESTKIT_CONCURRENCY',
    defaultText: '8',
    description: 'Probes in flight at once (the burst and the latency series always run alone)',
  },
  {
    name: 'fail-fast',
    type: 'boolean',
    env: 'QUESTKIT_FAIL_FAST',
    description: 'Stop at the first failed check',
  },
  JSON_FLAG,
  JUNIT_FLAG,
  {
    name: 'show-secrets',
    type: 'boolean',
    env: 'QUESTKIT_SHOW_SECRETS',
    description: 'Show the API key and signatures in the report instead of redacting them',
  },
  {
    name: 'verbose',
    type: 'boolean',
    env: 'QUESTKIT_VERBOSE',
    description: 'Show every detail of warnings, and of passing checks too',
  },
  NO_COLOR_FLAG,
];

const EPILOG = `Verdicts come in three tiers. Platform: the platform's three checks on the calls it makes
for the task (its claim shapes, the task's key, a drifted key). Members: what members will meet
(a refused or unchecked key, a throwing handler, the deadline, an unrouted quest, claims at load).
Hardening: requests the platform never sends (bad bodies, other methods and content types); they
warn, and fail only with --strict.

The URL can also come from QUESTKIT_URL.
The API key is never printed: curl lines read it from $QUEST_API_KEY, the same name the
examples and the mock use.
Claims are really sent: use a test member, or an endpoint in a test mode.

Exit codes: 0 passed; 1 a platform or members check failed, or the run could not judge (no answer,
no --api-key and no --no-api-key); 2 usage error.

Example:
  questkit check https://app.example/verify --api-key "$QUEST_API_KEY" --identifications email`;

function str(values: ParsedFlags['values'], name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

function int(values: ParsedFlags['values'], name: string): number | undefined {
  const value = values[name];
  return typeof value === 'number' ? value : undefined;
}

/** A name of {@link IDENTIFICATION_METHODS}, or a usage error with a did-you-mean. */
function identificationMethod(name: string, source: string): IdentificationMethod {
  if ((IDENTIFICATION_METHODS as readonly string[]).includes(name)) {
    return name as IdentificationMethod;
  }
  const guess = closest(name, IDENTIFICATION_METHODS);
  throw new UsageError(
    `${source}: unknown identification method "${name}"${guess ? ` (did you mean "${guess}"?)` : ''}; the methods are ${IDENTIFICATION_METHODS.join(', ')}`,
  );
}

function readIdentifications(text: string | undefined): IdentificationMethod[] | undefined {
  if (text === undefined) return undefined;
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const methods = names.map((name) => identificationMethod(name, '--identifications'));
  const twice = methods.find((method, i) => methods.indexOf(method) !== i);
  if (twice) throw new UsageError(`--identifications names ${twice} twice`);
  return methods;
}

function readAccounts(text: string | undefined): ConformanceOptions['member'] {
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageError('--accounts is not valid JSON');
  }
  if (typeof json === 'object' && json !== null && !Array.isArray(json)) {
    for (const key of Object.keys(json)) identificationMethod(key, '--accounts');
  }
  // Every key was checked above: the schema judges the values.
  const parsed = AccountsSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `accounts.${issue.path.join('.')}` : 'accounts';
    throw new UsageError(`--accounts: ${where}: ${issue?.message ?? 'invalid'}`);
  }
  return { accounts: parsed.data };
}

/**
 * Turns parsed flags into runner options; throws a UsageError for a bad combination. The URL is
 * the one positional argument, or `QUESTKIT_URL`.
 */
export function toRunOptions(
  parsed: ParsedFlags,
  env: Readonly<Record<string, string | undefined>> = {},
): ConformanceOptions {
  const { values, positionals } = parsed;
  const url = urlArgument(positionals, env, 'QUESTKIT_URL', 'the endpoint URL');

  if (values['expect-pass'] === true && values['expect-fail'] === true) {
    throw new UsageError('--expect-pass and --expect-fail exclude each other');
  }
  const connectUrl = str(values, 'connect-url');
  const secret = str(values, 'secret');
  if ((connectUrl === undefined) !== (secret === undefined)) {
    throw new UsageError('--connect-url and --secret go together');
  }
  const callback = str(values, 'connect-callback');

  const member = {
    ...readAccounts(str(values, 'accounts')),
    ...(str(values, 'user-id') !== undefined ? { userId: str(values, 'user-id') } : {}),
    ...(str(values, 'community-id') !== undefined
      ? { communityId: str(values, 'community-id') }
      : {}),
    ...(str(values, 'subdomain') !== undefined ? { subdomain: str(values, 'subdomain') } : {}),
    ...(str(values, 'quest-id') !== undefined ? { questId: str(values, 'quest-id') } : {}),
  };
  const only = str(values, 'only')
    ?.split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  const options: ConformanceOptions = { url };
  const apiKey = str(values, 'api-key');
  if (apiKey !== undefined && values['no-api-key'] === true) {
    throw new UsageError('--api-key and --no-api-key exclude each other');
  }
  if (apiKey !== undefined) options.apiKey = apiKey;
  if (values['no-api-key'] === true) options.noApiKey = true;
  const identifications = readIdentifications(str(values, 'identifications'));
  if (identifications !== undefined) options.identifications = identifications;
  if (values.strict === true) options.strict = true;
  if (Object.keys(member).length > 0) options.member = member;
  if (values['expect-pass'] === true) options.expect = 'pass';
  if (values['expect-fail'] === true) options.expect = 'fail';
  const timeoutMs = int(values, 'timeout');
  const slowMs = int(values, 'slow');
  const burst = int(values, 'burst');
  const samples = int(values, 'samples');
  if (timeoutMs !== undefined) options.timeoutMs = timeoutMs;
  if (slowMs !== undefined) options.slowMs = slowMs;
  if (burst !== undefined) options.burst = burst;
  if (samples !== undefined) options.samples = samples;
  const concurrency = int(values, 'concurrency');
  if (concurrency !== undefined) {
    if (concurrency > 64) throw new UsageError('--concurrency must be at most 64');
    options.concurrency = concurrency;
  }
  if (values['fail-fast'] === true) options.failFast = true;
  if (burst !== undefined && burst > 1000) throw new UsageError('--burst must be at most 1000');
  if (samples !== undefined && samples > 1000)
    throw new UsageError('--samples must be at most 1000');
  if (only && only.length > 0) options.only = only;
  if (connectUrl !== undefined && secret !== undefined) {
    options.connect = {
      url: httpUrl(connectUrl, '--connect-url'),
      secret,
      ...(callback !== undefined ? { callback: httpUrl(callback, '--connect-callback') } : {}),
    };
  }
  if (values['show-secrets'] === true) options.showSecrets = true;
  return options;
}

/** `questkit check`: runs the conformance battery against an endpoint and reports. */
export const checkCommand: Command = {
  name: 'check',
  summary: 'Check a verification endpoint the way the platform does, and tell why it would fail',
  usage: 'check <url> [options]',
  description:
    "Sends the claims the platform sends for the task (its claim shapes, the task's key, a drifted\nkey), then what members meet (a burst, a latency series) and hardening probes (bad bodies,\nmissing and wrongly typed fields, other methods and content types) to a verification endpoint,\nwritten with questkit or not, and judges every answer by the platform's three checks: answered\nwithin 10 s, a message that can be shown, status 200 or 400.",
  flags: CHECK_FLAGS,
  epilog: EPILOG,
  async run(parsed, io) {
    const options = toRunOptions(parsed, io.env);
    return runReport(
      {
        name: 'check',
        url: options.url,
        suite: 'questkit conformance',
        run: (extra) => runConformance({ ...options, ...extra }),
        human: formatHuman,
        json: formatJson,
        junit: formatJunit,
      },
      parsed,
      io,
    );
  },
};
