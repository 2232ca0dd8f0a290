/**
 * Entry of the child process that serves the mock platform for a suite (bundled by the global
 * setup). Like the adapter server, it reports over IPC: its port, internal errors (`onError`),
 * unhandled rejections, and on request its memory. No `uncaughtException` handler: a crash ends
 * the process and the test sees the exit.
 */
import { createManualClock, createMockPlatform, startMockServer } from '@questkit/mock-platform';
import type { ChildMessage, MockServerConfig, ParentMessage } from './protocol.js';
import { snapshotPrototypes } from './prototypes.js';

const config = JSON.parse(process.argv[2] ?? '{}') as MockServerConfig;
const prototypes = snapshotPrototypes();
let unhandledRejections = 0;

function send(message: ChildMessage): void {
  if (process.connected) process.send?.(message);
}

function describe(error: unknown): string {
  return error instanceof Error
    ? `${error.name}: ${error.message}\n${error.stack ?? ''}`
    : String(error);
}

process.on('unhandledRejection', (reason) => {
  unhandledRejections++;
  send({ type: 'unhandled-rejection', text: describe(reason) });
});
process.on('disconnect', () => process.exit(0));

const platform = createMockPlatform({
  ...(config.manualClock ? { clock: createManualClock(config.clockStart) } : {}),
  seed: { users: config.seedUsers },
  rateLimit: config.rateLimit,
  endpointChecks: config.endpointChecks,
  ...(config.verificationTimeoutMs === undefined
    ? {}
    : { verificationTimeoutMs: config.verificationTimeoutMs }),
  ...(config.serviceJournalSize === undefined
    ? {}
    : { serviceJournalSize: config.serviceJournalSize }),
  ...(config.webhooks === undefined ? {} : { webhooks: config.webhooks }),
  ...(config.controlToken === undefined ? {} : { controlToken: config.controlToken }),
  ...(config.outbound === undefined ? {} : { outbound: config.outbound }),
  ...(config.claimCounterRefreshMs === undefined
    ? {}
    : { claimCounterRefreshMs: config.claimCounterRefreshMs }),
  onError: (error) =>
    send({ type: 'on-error', route: 'mock', reason: 'internal', text: describe(error) }),
});
const server = await startMockServer(platform, { port: 0, host: '127.0.0.1' });

process.on('message', (message: ParentMessage) => {
  if (message.type === 'close') {
    void server.close().then(() => process.exit(0));
    return;
  }
  if (message.type === 'stats') {
    if (message.gc && globalThis.gc) for (let i = 0; i < 4; i++) globalThis.gc();
    const memory = process.memoryUsage();
    send({
      type: 'stats',
      id: message.id,
      heapUsed: memory.heapUsed,
      rss: memory.rss,
      maxRss: process.resourceUsage().maxRSS * 1024,
      pollution: prototypes.changes(),
      unhandledRejections,
      reasons: {},
      linked: 0,
    });
  }
});

send({ type: 'listening', port: server.port });
