/**
 * Runs a server under test in a child process, so that a crash ends the child (and is seen here)
 * instead of the test runner, and memory is the server's own.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { inject } from 'vitest';
import type {
  AdapterName,
  ChildMessage,
  MockServerConfig,
  ParentMessage,
  ServerConfig,
  ServerStats,
} from '../servers/protocol.js';
import { API_KEY, CONNECT_SECRET } from './secrets.js';

type Event<T extends ChildMessage['type']> = Extract<ChildMessage, { type: T }>;

/** A child process serving an app under test. */
export interface ChildServer {
  /** What runs in it, for messages. */
  readonly name: string;
  readonly port: number;
  /** `onError` calls (the adapter's `faults` route; the mock's internal errors), in order. */
  readonly onErrors: Event<'on-error'>[];
  readonly unhandledRejections: Event<'unhandled-rejection'>[];
  readonly linked: Event<'linked'>[];
  /** Everything the child wrote to stdout and stderr so far. */
  output(): string;
  /** How the child ended, when it ended without being asked to (a crash). */
  crash(): { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** Memory and health of the child; `gc` collects garbage first. */
  stats(options?: { gc?: boolean }): Promise<ServerStats>;
  /** Resolves once `predicate` holds for an `onError` event, or rejects after `timeoutMs`. */
  waitForOnError(
    predicate: (event: Event<'on-error'>) => boolean,
    timeoutMs: number,
  ): Promise<Event<'on-error'>>;
  close(): Promise<void>;
}

/** A child process serving one adapter's app. */
export interface ServerProcess extends ChildServer {
  readonly adapter: AdapterName;
  readonly config: ServerConfig;
}

/** Output kept per child; beyond it the oldest text is dropped (and counted). */
const MAX_OUTPUT_CHARS = 64 * 1024 * 1024;

/** Starts the adapter's app in a child process and waits until it listens. */
export async function startServer(
  adapter: AdapterName,
  overrides: Partial<Omit<ServerConfig, 'adapter'>> = {},
): Promise<ServerProcess> {
  const config: ServerConfig = {
    adapter,
    apiKey: API_KEY,
    connectSecret: CONNECT_SECRET,
    timeoutMs: 1000,
    maxBodyBytes: 64 * 1024,
    lateByMs: 100,
    ...overrides,
  };
  const server = await spawnChild(inject('adapterServerBundle'), adapter, config);
  return { ...server, adapter, config };
}

/** Starts the mock platform in a child process and waits until it listens. */
export function startMock(overrides: Partial<MockServerConfig> = {}): Promise<ChildServer> {
  const config: MockServerConfig = {
    seedUsers: 100,
    rateLimit: false,
    manualClock: false,
    endpointChecks: false,
    ...overrides,
  };
  return spawnChild(inject('mockServerBundle'), 'mock platform', config);
}

/** Starts `examples/connect` in a child process and waits until it listens. */
export function startExampleConnect(): Promise<ChildServer> {
  return spawnChild(inject('exampleConnectBundle'), 'examples/connect', {});
}

function spawnChild(bundle: string, name: string, config: object): Promise<ChildServer> {
  const child = fork(bundle, [JSON.stringify(config)], {
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    serialization: 'advanced',
  });
  return attach(child, name);
}

function attach(child: ChildProcess, adapter: string): Promise<ChildServer> {
  let output = '';
  const capture = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (output.length > MAX_OUTPUT_CHARS) output = output.slice(-MAX_OUTPUT_CHARS);
  };
  child.stdout?.on('data', capture);
  child.stderr?.on('data', capture);

  let closing = false;
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const onErrors: Event<'on-error'>[] = [];
  const unhandledRejections: Event<'unhandled-rejection'>[] = [];
  const linked: Event<'linked'>[] = [];
  const pendingStats = new Map<number, (stats: ServerStats) => void>();
  const errorWaiters = new Set<() => void>();
  let nextId = 1;

  return new Promise((resolve, reject) => {
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      if (!closing)
        reject(new Error(`the ${adapter} server exited (${code ?? signal}):\n${output}`));
      for (const waiter of errorWaiters) waiter();
    });
    child.on('message', (message: ChildMessage) => {
      switch (message.type) {
        case 'listening':
          resolve(handle(message.port));
          return;
        case 'stats': {
          const { type: _type, id, ...stats } = message;
          pendingStats.get(id)?.(stats);
          pendingStats.delete(id);
          return;
        }
        case 'on-error':
          onErrors.push(message);
          for (const waiter of errorWaiters) waiter();
          return;
        case 'unhandled-rejection':
          unhandledRejections.push(message);
          return;
        case 'linked':
          linked.push(message);
          return;
      }
    });

    const handle = (port: number): ChildServer => ({
      name: adapter,
      port,
      onErrors,
      unhandledRejections,
      linked,
      output: () => output,
      crash: () => (closing ? undefined : exit),
      stats: ({ gc = false } = {}) =>
        new Promise((done, fail) => {
          if (exit) {
            fail(new Error(`the ${adapter} server is gone (${exit.code ?? exit.signal})`));
            return;
          }
          const id = nextId++;
          pendingStats.set(id, done);
          child.send({ type: 'stats', id, gc } satisfies ParentMessage);
        }),
      waitForOnError: (predicate, timeoutMs) =>
        new Promise((done, fail) => {
          const check = () => {
            const found = onErrors.find(predicate);
            if (found || exit) {
              clearTimeout(timer);
              errorWaiters.delete(check);
              if (found) done(found);
              else fail(new Error(`the ${adapter} server exited`));
            }
          };
          const timer = setTimeout(() => {
            errorWaiters.delete(check);
            fail(new Error(`no matching onError call within ${timeoutMs} ms`));
          }, timeoutMs);
          errorWaiters.add(check);
          check();
        }),
      close: async () => {
        if (exit) return;
        closing = true;
        const exited = new Promise<void>((done) => child.once('exit', () => done()));
        child.send({ type: 'close' } satisfies ParentMessage);
        const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(killer);
      },
    });
  });
}
