import { randomBytes } from 'node:crypto';
import type { GeneratedCredential, MockPlatform, MockServer } from '@questkit/mock-platform';
import { UsageError } from '../../errors.js';
import type { ParsedFlags } from '../../flags.js';
import type { CliIo } from '../../io.js';
import { exposureReasons } from './exposure.js';
import {
  type ClockChoice,
  MOCK_DEFAULT_PORT,
  MOCK_DEFAULT_RATE_LIMIT,
  MOCK_DEFAULT_SEED,
  parseClock,
} from './flags.js';

type Mock = typeof import('@questkit/mock-platform');

/** Hooks for tests: stop the server without a signal, and see it once it listens. */
export interface MockRunHooks {
  signal?: AbortSignal;
  onListening?: (server: MockServer) => void;
  /** Listen here instead of `--host`, every other decision still taken from `--host`. */
  bindHost?: string;
}

/** The credentials that replaced the published ones, and where they were written (else printed). */
interface Replaced {
  generated: readonly GeneratedCredential[];
  file: string | undefined;
}

const text = (values: ParsedFlags['values'], name: string) =>
  typeof values[name] === 'string' ? (values[name] as string) : undefined;
const integer = (values: ParsedFlags['values'], name: string, fallback: number) =>
  typeof values[name] === 'number' ? (values[name] as number) : fallback;

const ADVANCE_PATH = '/__mock/clock/advance';

/** The clock `--clock` (or its environment twin) asks for; the system clock by default. */
function clockChoice(values: ParsedFlags['values']): ClockChoice {
  const value = text(values, 'clock');
  // The flag parser has checked the value already.
  return (value === undefined ? undefined : parseClock(value)) ?? { kind: 'system' };
}

/**
 * The lines printed on start: the base URL, the dashboard, the clock, the demo credentials and
 * what the demo quests call, short enough to stay on screen; the control routes that work in this
 * mode, with an example each, under `--verbose`. A key the user supplied (flag, environment or
 * fixtures) is never echoed: only the built-in public demo keys are.
 */
async function banner(
  mock: Mock,
  server: MockServer,
  apiKeySource: string | undefined,
  replaced: Replaced,
  verbose: boolean,
): Promise<string> {
  const { platform, url } = server;
  const manual = platform.service.scheduler.mode === 'manual';
  // Advancing a system clock answers 409: the banner lists only what works.
  const routes = mock.CONTROL_ROUTES.filter(
    (route) => manual || !(route.method === 'POST' && route.path === ADVANCE_PATH),
  );
  const lines = [
    `questkit mock platform listening on ${url}`,
    `  Dashboard ${url}/__mock/dashboard`,
    `  Docs     ${url}/docs (OpenAPI: ${url}/openapi.json, control routes: ${url}/__mock/openapi.json)`,
    manual
      ? `  Clock    manual, standing at ${platform.clock.now().toISOString()} until POST ${url}${ADVANCE_PATH} {"ms": ...} moves it`
      : '  Clock    system time (start with --clock manual to get a test clock you can advance)',
  ];
  if (verbose) {
    lines.push(
      'Control routes (tests and demos drive the mock with them), e.g.:',
      ...routes.map(
        (route) =>
          `  ${route.method.padEnd(6)} ${route.path}\n           ${mock.controlExample(route, url)}`,
      ),
    );
  } else if (routes.length > 0) {
    lines.push(
      `  Control  ${routes.length} routes under ${url}/__mock/ (claims, connect, webhooks, the clock); --verbose lists them with a curl example each`,
    );
  }
  const demo = platform.store.communities.getBySubdomain(mock.DEMO.subdomain);
  const verifyEndpoint = demoVerifyEndpoint(platform, demo?.id) ?? mock.DEMO.verifyEndpoint;
  if (!demo) {
    lines.push('No "demo" community in this state.');
    return `${lines.join('\n')}\n`;
  }
  const keys = platform.store.apiKeys.listByCommunity(demo.id);
  const show = (scope: 'read-write' | 'read-only', builtIn: string) => {
    const key = keys.find((k) => k.scope === scope);
    if (!key) return '(none)';
    if (scope === 'read-write' && apiKeySource) return apiKeySource;
    const fresh = generatedValue(replaced, demo.subdomain, scope);
    if (fresh) return fresh;
    return key.key === builtIn ? key.key : '(from the fixtures file)';
  };
  lines.push(
    `Demo community "${demo.subdomain}": ${url}/public/communities/${demo.subdomain}`,
    `  x-api-key (read-write)  ${show('read-write', mock.DEMO.apiKeys.readWrite)}`,
    `  x-api-key (read-only)   ${show('read-only', mock.DEMO.apiKeys.readOnly)}`,
    ...generatedLines(replaced, demo.subdomain),
  );
  const admin = platform.store.users.get(mock.DEMO.users.admin);
  if (admin && admin.communityId === demo.id) {
    const token = await platform.issueToken(admin.id);
    lines.push(
      `  admin member token      authorization: Bearer ${token}`,
      `                          (user ${admin.name ?? admin.id}, ${admin.id}; more: POST ${url}/__mock/tokens {"userId": "..."})`,
    );
  }
  lines.push(
    `  members                 ${platform.store.users.countActive(demo.id)}`,
    `  demo quests             their API tasks call ${verifyEndpoint} with x-api-key ${mock.DEMO.taskApiKey}`,
    `                          (serve your endpoint there with QUEST_API_KEY=${mock.DEMO.taskApiKey}; another URL: --verify-endpoint <url>)`,
  );
  const others = [...new Set(replaced.generated.map((c) => c.subdomain))].filter(
    (subdomain) => subdomain !== demo.subdomain,
  );
  for (const subdomain of others) {
    lines.push(
      `Community "${subdomain}": ${url}/public/communities/${subdomain}`,
      ...(['read-write', 'read-only'] as const).flatMap((scope) => {
        const value = generatedValue(replaced, subdomain, scope);
        return value ? [`  x-api-key (${scope})${' '.repeat(12 - scope.length)}${value}`] : [];
      }),
      ...generatedLines(replaced, subdomain),
    );
  }
  if (replaced.file && replaced.generated.length > 0) {
    lines.push(
      `New keys and secrets replacing the published demo ones: written to ${replaced.file}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** A generated key of a community, or where it was written; undefined when none was generated. */
function generatedValue(
  replaced: Replaced,
  subdomain: string,
  scope: 'read-write' | 'read-only' | 'connect-secret',
): string | undefined {
  const credential = replaced.generated.find(
    (c) =>
      c.subdomain === subdomain &&
      (c.kind === 'api-key' ? c.scope === scope : scope === 'connect-secret'),
  );
  if (!credential) return undefined;
  return replaced.file ? `(new, in ${replaced.file})` : credential.value;
}

/** The line of a community's generated connect secret, if one was generated. */
function generatedLines(replaced: Replaced, subdomain: string): string[] {
  const secret = generatedValue(replaced, subdomain, 'connect-secret');
  return secret ? [`  connect secret          ${secret}`] : [];
}

/** The credentials file: the new values by community, for the operator alone. */
function credentialsJson(generated: readonly GeneratedCredential[]): string {
  const communities: Record<string, { apiKeys: Record<string, string>; connectSecret?: string }> =
    {};
  for (const credential of generated) {
    communities[credential.subdomain] ??= { apiKeys: {} };
    const community = communities[credential.subdomain]!;
    if (credential.kind === 'api-key') community.apiKeys[credential.scope] = credential.value;
    else community.connectSecret = credential.value;
  }
  return `${JSON.stringify({ communities }, null, 2)}\n`;
}

/** Which credentials the public API accepts, by community, named without their values. */
function acceptedCredentials(
  platform: MockPlatform,
  apiKeySource: string | undefined,
  apiKey: string | undefined,
  replaced: Replaced,
): string {
  const communities = platform.store.communities.list().map((community) => {
    const scopes = platform.store.apiKeys.listByCommunity(community.id).map((key) => {
      if (apiKeySource && key.key === apiKey) return `${key.scope} ${apiKeySource}`;
      const fresh = replaced.generated.some((c) => c.kind === 'api-key' && c.value === key.key);
      return fresh ? key.scope : `${key.scope} (from the fixtures file)`;
    });
    return `${community.subdomain}: ${scopes.length > 0 ? scopes.join(', ') : 'no key'}`;
  });
  const where = replaced.file ? `written to ${replaced.file}` : 'printed above, once';
  return `The public API accepts only these x-api-key credentials (new ones ${where}): ${communities.join('; ')}; and member tokens this mock issues. The published demo keys are refused.`;
}

/** The endpoint the demo community's API tasks call (the seed's, or the loaded state's). */
function demoVerifyEndpoint(platform: MockPlatform, communityId: string | undefined) {
  if (communityId === undefined) return undefined;
  for (const quest of platform.store.quests.listByCommunity(communityId))
    for (const task of quest.tasks)
      if (task.type === 'api' && typeof task.settings.endpoint === 'string')
        return task.settings.endpoint;
  return undefined;
}

async function createPlatform(
  mock: Mock,
  values: ParsedFlags['values'],
  controlToken: string | undefined,
): Promise<MockPlatform> {
  const rateLimit = integer(values, 'rate-limit', MOCK_DEFAULT_RATE_LIMIT);
  const allowedHosts = allowedHostsOf(values);
  const fixtures = text(values, 'fixtures');
  const apiKey = text(values, 'api-key');
  const publicUrl = text(values, 'public-url');
  const verifyEndpoint = text(values, 'verify-endpoint');
  if (fixtures && verifyEndpoint !== undefined)
    throw new UsageError(
      "--verify-endpoint sets the demo seed's quests; with --fixtures the saved quests keep their endpoints",
    );
  const clock = clockChoice(values);
  return mock.createMockPlatform({
    // The rate limit keeps real time: on a clock standing still its buckets would never refill.
    ...(clock.kind === 'manual'
      ? {
          clock: mock.createManualClock(clock.start ?? new Date()),
          rateLimitClock: mock.systemClock,
        }
      : {}),
    ...(fixtures
      ? { store: mock.createMemoryStore(await mock.readFixtures(fixtures)) }
      : {
          seed: {
            users: integer(values, 'seed', MOCK_DEFAULT_SEED),
            ...(verifyEndpoint !== undefined ? { verifyEndpoint } : {}),
          },
        }),
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(publicUrl !== undefined ? { baseUrl: publicUrl } : {}),
    ...(allowedHosts ? { allowedHosts } : {}),
    ...(values['no-control'] === true ? { control: false } : {}),
    ...(controlToken !== undefined ? { controlToken } : {}),
    rateLimit: rateLimit === 0 ? false : { perSecond: rateLimit },
  });
}

/**
 * `questkit mock`, with its flags parsed: starts the mock platform on a port, prints the base URL,
 * the control routes and the demo credentials, and runs until Ctrl-C (or `hooks.signal`); then
 * writes `--save` and closes. Resolves with the exit code: 0 after a clean stop, 1 when the server
 * cannot start (port taken, bad fixtures) or the state cannot be saved.
 */
export async function runMock(
  mock: Mock,
  values: ParsedFlags['values'],
  io: CliIo,
  hooks: MockRunHooks = {},
): Promise<number> {
  const host = text(values, 'host') ?? '127.0.0.1';
  // Reachable beyond loopback (bound, or published through a tunnel or a proxy), anyone who can
  // reach it could drive the mock: control routes need a token.
  const reasons = exposureReasons({
    host,
    allowedHosts: allowedHostsOf(values),
    publicUrl: text(values, 'public-url'),
  });
  const exposed = reasons.length > 0;
  const controlToken =
    exposed && values['no-control'] !== true ? randomBytes(24).toString('base64url') : undefined;
  const apiKey = text(values, 'api-key');
  const credentialsFile = exposed ? text(values, 'credentials-file') : undefined;
  // A usage error (a flag that does not fit the others) is thrown before anything starts.
  const platform = await createPlatform(mock, values, controlToken).catch((error: unknown) => {
    if (error instanceof UsageError) throw error;
    return error instanceof Error ? error : new Error(String(error));
  });
  let server: MockServer;
  let replaced: Replaced = { generated: [], file: undefined };
  try {
    if (platform instanceof Error) throw platform;
    // Beyond loopback, the published demo keys and secrets would let anyone in: replaced.
    if (exposed) {
      const generated = mock.replacePublishedCredentials(platform.store, {
        keep: apiKey === undefined ? [] : [apiKey],
      });
      if (credentialsFile && generated.length > 0) {
        await mock.writePrivateFile(credentialsFile, credentialsJson(generated));
      }
      replaced = { generated, file: credentialsFile };
    }
    server = await mock.startMockServer(platform, {
      port: integer(values, 'port', MOCK_DEFAULT_PORT),
      host: hooks.bindHost ?? host,
    });
  } catch (error) {
    io.stderr.write(`questkit mock: ${startFailure(error)}\n`);
    return 1;
  }
  // Where the read-write key came from, said without echoing it.
  const source =
    text(values, 'api-key') === undefined
      ? undefined
      : io.env.QUESTKIT_MOCK_API_KEY === text(values, 'api-key')
        ? '(the key in QUESTKIT_MOCK_API_KEY)'
        : '(the key given with --api-key)';
  io.stdout.write(await banner(mock, server, source, replaced, values.verbose === true));
  if (exposed) {
    const accepted = acceptedCredentials(server.platform, source, apiKey, replaced);
    const why = `Warning: reachable beyond loopback (${reasons.join('; ')})`;
    io.stderr.write(
      controlToken
        ? `${why}: anyone who can reach it can use the mock. Control routes need the header x-questkit-control-token: ${controlToken} (or start with --no-control). Names other than ${host} must be listed with --allowed-hosts. ${accepted}\n`
        : `${why}: anyone who can reach it can use the public API. Control routes are off (--no-control). ${accepted}\n`,
    );
  }
  hooks.onListening?.(server);
  await new Promise<void>((resolve) => {
    if (hooks.signal?.aborted) return resolve();
    hooks.signal?.addEventListener('abort', () => resolve(), { once: true });
    const stop = io.onInterrupt(() => {
      stop();
      resolve();
    });
  });
  let code = 0;
  const save = text(values, 'save');
  if (save) {
    try {
      await mock.writeFixtures(save, server.platform.store);
      io.stdout.write(`State saved to ${save}\n`);
    } catch (error) {
      io.stderr.write(`questkit mock: cannot save ${save}: ${(error as Error).message}\n`);
      code = 1;
    }
  }
  await server.close();
  return code;
}

/** `--allowed-hosts`, split at commas. */
function allowedHostsOf(values: ParsedFlags['values']): string[] | undefined {
  return text(values, 'allowed-hosts')
    ?.split(',')
    .map((host) => host.trim())
    .filter(Boolean);
}

/** Why the server could not start, with the way out when the port is taken. */
function startFailure(error: unknown): string {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code === 'EADDRINUSE') {
    return `${String(message)}: the port is taken. Start on another one with --port <n>, or with --port 0 for any free port (the banner prints it)`;
  }
  return String(message);
}
