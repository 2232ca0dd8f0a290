import { readFixtures, writeFixtures } from '../fixtures-file.js';
import { createMockPlatform, type MockPlatform } from '../platform.js';
import { DEMO } from '../seed/demo-ids.js';
import { type MockServer, startMockServer } from '../server.js';
import { createMemoryStore } from '../store/memory.js';
import { MOCK_FLAGS, type MockCliConfig, mockUsage, parseMockArgs } from './args.js';

/** Where `runMockCli` writes and when it stops. */
export interface MockCliIo {
  /** Standard output (default process.stdout). */
  stdout?: (text: string) => void;
  /** Standard error (default process.stderr). */
  stderr?: (text: string) => void;
  /** Stops the server when aborted; default SIGINT and SIGTERM. */
  signal?: AbortSignal;
  /** Called once the server listens (tests read the URL here). */
  onListening?: (server: MockServer) => void;
}

/**
 * The lines printed on start: the base URL and the demo credentials. A key the user supplied (flag,
 * environment or fixtures) is never echoed: only the built-in public demo keys are.
 */
async function banner(server: MockServer, config: MockCliConfig): Promise<string> {
  const { platform, url } = server;
  const lines = [
    `questkit mock platform listening on ${url}`,
    `  OpenAPI  ${url}/openapi.json`,
    `  Docs     ${url}/docs`,
  ];
  const demo = platform.store.communities.getBySubdomain(DEMO.subdomain);
  if (!demo) {
    lines.push('No "demo" community in this state.');
    return `${lines.join('\n')}\n`;
  }
  const keys = platform.store.apiKeys.listByCommunity(demo.id);
  const show = (scope: 'read-write' | 'read-only', builtIn: string) => {
    const key = keys.find((k) => k.scope === scope);
    if (!key) return '(none)';
    if (scope === 'read-write' && config.apiKeySource) {
      return config.apiKeySource === 'flag'
        ? '(the key given with --api-key)'
        : '(the key in QUESTKIT_MOCK_API_KEY)';
    }
    return key.key === builtIn ? key.key : '(from the fixtures file)';
  };
  lines.push(
    `Demo community "${demo.subdomain}": ${url}/public/communities/${demo.subdomain}`,
    `  x-api-key (read-write)  ${show('read-write', DEMO.apiKeys.readWrite)}`,
    `  x-api-key (read-only)   ${show('read-only', DEMO.apiKeys.readOnly)}`,
  );
  const admin = platform.store.users.get(DEMO.users.admin);
  if (admin && admin.communityId === demo.id) {
    const token = await platform.issueToken(admin.id);
    lines.push(
      `  admin member token      authorization: Bearer ${token}`,
      `                          (user ${admin.name ?? admin.id}, ${admin.id}; more: POST ${url}/__mock/tokens {"userId": "..."})`,
    );
  }
  lines.push(`  members                 ${platform.store.users.countActive(demo.id)}`);
  return `${lines.join('\n')}\n`;
}

async function createFromConfig(config: MockCliConfig): Promise<MockPlatform> {
  const rateLimit = config.rateLimit === 0 ? false : { perSecond: config.rateLimit };
  const store = config.fixtures
    ? createMemoryStore(await readFixtures(config.fixtures))
    : undefined;
  return createMockPlatform({
    ...(store ? { store } : { seed: { users: config.seedUsers } }),
    ...(config.apiKey !== undefined ? { apiKey: config.apiKey } : {}),
    ...(config.publicUrl !== undefined ? { baseUrl: config.publicUrl } : {}),
    rateLimit,
  });
}

function waitForStop(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal) {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
      return;
    }
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/**
 * `questkit mock`: reads flags and environment, starts the mock platform on a port, prints the
 * base URL and demo credentials, and runs until stopped (SIGINT, SIGTERM or `io.signal`); then
 * writes `--save` and closes. Resolves with the exit code: 0 after a clean stop or `--help`, 2 for
 * bad arguments, 1 when the server cannot start (port taken, bad fixtures).
 *
 * @example
 * process.exitCode = await runMockCli(process.argv.slice(2), process.env);
 */
export async function runMockCli(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  io: MockCliIo = {},
): Promise<number> {
  const stdout = io.stdout ?? ((text: string) => void process.stdout.write(text));
  const stderr = io.stderr ?? ((text: string) => void process.stderr.write(text));
  const args = parseMockArgs(argv, env);
  if (args.kind === 'help') {
    stdout(mockUsage());
    return 0;
  }
  if (args.kind === 'error') {
    stderr(`${args.message}\n\n${mockUsage()}`);
    return 2;
  }
  const { config } = args;
  let server: MockServer;
  try {
    server = await startMockServer(await createFromConfig(config), {
      port: config.port,
      host: config.host,
    });
  } catch (error) {
    stderr(`questkit mock: ${(error as Error).message}\n`);
    return 1;
  }
  stdout(await banner(server, config));
  io.onListening?.(server);
  await waitForStop(io.signal);
  let code = 0;
  if (config.save) {
    try {
      await writeFixtures(config.save, server.platform.store);
      stdout(`State saved to ${config.save}\n`);
    } catch (error) {
      stderr(`questkit mock: cannot save ${config.save}: ${(error as Error).message}\n`);
      code = 1;
    }
  }
  await server.close();
  return code;
}

/**
 * The `mock` command for the `questkit` binary: wire it as
 * `questkit mock ...args` -> `process.exitCode = await mockCommand.run(args, process.env)`.
 */
export const mockCommand = {
  name: 'mock',
  summary: 'Run the mock platform (public API, /openapi.json, /docs) on a local port',
  usage: mockUsage,
  flags: MOCK_FLAGS,
  run: runMockCli,
} as const;
