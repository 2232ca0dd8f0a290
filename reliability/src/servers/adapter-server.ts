/**
 * Entry of the child process that serves one adapter's app for a suite (bundled by the global
 * setup). It reports through IPC: its port, `onError` calls of the `faults` route, unhandled
 * rejections, and on request its memory, prototype state and answer counts. It installs no
 * `uncaughtException` handler: a crash must end the process, and the test sees the exit.
 */
import type { ErrorInfo } from '@questkit/core';
import { startApp } from './apps.js';
import type { ChildMessage, ParentMessage, ServerConfig } from './protocol.js';
import { snapshotPrototypes } from './prototypes.js';

const config = JSON.parse(process.argv[2] ?? '{}') as ServerConfig;
const prototypes = snapshotPrototypes();
const reasons: Record<string, number> = {};
let unhandledRejections = 0;
let linked = 0;

function send(message: ChildMessage): void {
  if (process.connected) process.send?.(message);
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}\n${error.stack ?? ''}`;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

process.on('unhandledRejection', (reason) => {
  unhandledRejections++;
  send({ type: 'unhandled-rejection', text: describe(reason) });
});
// The parent went away: nothing is left to report to.
process.on('disconnect', () => process.exit(0));

const app = await startApp(config.adapter, config, {
  onResult: (route) => (event) => {
    const key = `${route} ${event.reason}`;
    reasons[key] = (reasons[key] ?? 0) + 1;
  },
  onFaultError: (error: unknown, info: ErrorInfo) =>
    send({
      type: 'on-error',
      route: '/faults',
      reason: info.reason,
      ...(info.requestId === undefined ? {} : { requestId: info.requestId }),
      text: describe(error),
    }),
  onLinked: (route) => (link) => {
    linked++;
    send({ type: 'linked', route, ...link });
  },
});

process.on('message', (message: ParentMessage) => {
  if (message.type === 'close') {
    void app.close().then(() => process.exit(0));
    return;
  }
  if (message.type === 'stats') {
    if (message.gc && globalThis.gc) {
      // Several passes: weak references and finalizers free more on the later ones.
      for (let i = 0; i < 4; i++) globalThis.gc();
    }
    const memory = process.memoryUsage();
    send({
      type: 'stats',
      id: message.id,
      heapUsed: memory.heapUsed,
      rss: memory.rss,
      maxRss: process.resourceUsage().maxRSS * 1024,
      pollution: prototypes.changes(),
      unhandledRejections,
      reasons,
      linked,
    });
  }
});

send({ type: 'listening', port: app.port });
