import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** A real redis-server on a free loopback port, without persistence, stoppable and restartable. */
export interface TestRedis {
  readonly port: number;
  readonly url: string;
  /** Stops the server (SIGTERM), waiting for its exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
}

/** Where Debian's package puts it; `.ci/run` installs `redis-server` when it is missing. */
const REDIS_SERVER = process.env.REDIS_SERVER ?? 'redis-server';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

/**
 * Starts redis-server and waits (at most 10 s) until it accepts connections; `args` are more
 * options (`['--enable-debug-command', 'local']` for `DEBUG SLEEP`).
 */
export async function startRedis(args: readonly string[] = []): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const started = spawn(
        REDIS_SERVER,
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          '--appendonly',
          'no',
          ...args,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child = started;
      let output = '';
      const timer = setTimeout(() => {
        started.kill('SIGKILL');
        reject(new Error(`redis-server not ready in 10 s:\n${output}`));
      }, 10_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      };
      started.stdout!.on('data', read);
      started.stderr!.on('data', read);
      started.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      started.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}):\n${output}`));
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return resolve();
      const timer = setTimeout(() => running.kill('SIGKILL'), 5_000);
      running.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      running.kill('SIGTERM');
    });
  await start();
  return { port, url: `redis://127.0.0.1:${port}`, stop, start };
}
