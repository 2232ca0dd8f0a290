/**
 * Process orchestration: every server and every load generator is its own Node process, pinned
 * to its own core with `taskset` when it exists (server on core 0, load on core 1), so the two
 * never compete for one CPU.
 */
import { execFileSync, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));

/** Cores of the server and of the load; they differ whenever the machine has two or more. */
export const SERVER_CORE = 0;
export const LOAD_CORE = availableParallelism() > 1 ? 1 : 0;

let tasksetChecked;
/** True when `taskset` can pin a process here. */
export function hasTaskset() {
  if (tasksetChecked === undefined) {
    try {
      execFileSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore', timeout: 5000 });
      tasksetChecked = true;
    } catch {
      tasksetChecked = false;
    }
  }
  return tasksetChecked;
}

/** The command and arguments that run `node ...args` on `core` (unpinned without taskset). */
function pinnedNode(core, args) {
  return hasTaskset()
    ? { command: 'taskset', args: ['-c', String(core), process.execPath, ...args] }
    : { command: process.execPath, args };
}

/**
 * Starts `servers/main.mjs <module> ...args` and resolves once it listens. `nodeFlags` go to
 * node (e.g. `--cpu-prof`). The returned handle asks it for its stats and shuts it down.
 */
export function startServer({
  module,
  args = [],
  nodeFlags = [],
  core = SERVER_CORE,
  timeoutMs = 30_000,
}) {
  const script = join(BENCH_DIR, 'servers', 'main.mjs');
  const { command, args: argv } = pinnedNode(core, [...nodeFlags, script, module, ...args]);
  const child = spawn(command, argv, {
    cwd: BENCH_DIR,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiters = [];
  child.on('message', (message) => {
    const waiter = waiters.shift();
    if (waiter) waiter.resolve(message);
  });
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  exited.then(({ code, signal }) => {
    for (const waiter of waiters.splice(0)) {
      waiter.reject(new Error(`server ${module} ${args.join(' ')} exited (${code ?? signal})`));
    }
  });

  const next = (label) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`server ${module} ${args.join(' ')}: no ${label} within ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.push({
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
    });

  return next('ready').then((ready) => ({
    port: ready.port,
    info: ready.info,
    pid: child.pid,
    stats() {
      const reply = next('stats');
      child.send('stats');
      return reply;
    },
    async shutdown() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send('shutdown');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  }));
}

let loadWorker;

/**
 * Runs one autocannon load from the load process (started on first use, on the load core) and
 * returns its summary. `config`: { url, method, headers, body?, paths?, connections, duration }.
 */
export async function runLoad(config) {
  loadWorker ??= startLoadWorker();
  const worker = await loadWorker;
  return worker.run(config, (config.duration + 60) * 1000);
}

/** Stops the load process, if one was started. */
export async function stopLoadWorker() {
  if (!loadWorker) return;
  const worker = await loadWorker;
  loadWorker = undefined;
  worker.stop();
}

function startLoadWorker() {
  const { command, args } = pinnedNode(LOAD_CORE, [join(BENCH_DIR, 'load', 'autocannon.mjs')]);
  const child = spawn(command, args, {
    cwd: BENCH_DIR,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let pending;
  child.on('message', (message) => {
    const waiter = pending;
    pending = undefined;
    waiter?.(message);
  });
  child.once('exit', (code, signal) => {
    pending?.({ type: 'error', message: `the load process exited (${code ?? signal})` });
    pending = undefined;
  });
  const next = (timeoutMs) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        pending = undefined;
        reject(new Error(`the load process did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
      pending = (message) => {
        clearTimeout(timer);
        if (message.type === 'error') reject(new Error(message.message));
        else resolve(message);
      };
    });
  return next(30_000).then(() => ({
    async run(config, timeoutMs) {
      const reply = next(timeoutMs);
      child.send({ type: 'run', config });
      return (await reply).result;
    },
    stop() {
      child.disconnect();
    },
  }));
}

/**
 * Runs a pinned node script to completion and returns its stdout; stderr passes through. Killed
 * past `timeoutMs`.
 */
export function runNodeScript(script, args, { core = SERVER_CORE, timeoutMs, nodeFlags = [] }) {
  const { command, args: argv } = pinnedNode(core, [
    ...nodeFlags,
    join(BENCH_DIR, script),
    ...args,
  ]);
  return collect(command, argv, timeoutMs);
}

function collect(command, args, timeoutMs) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: BENCH_DIR, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`${args.join(' ')} failed (${code ?? signal})`));
    });
  });
}
