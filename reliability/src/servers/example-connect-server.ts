/**
 * Entry of the child process that serves `examples/connect` (the Hono community app) for a suite,
 * bundled by the global setup with the example inlined. Like the adapter server it reports over
 * IPC: its port, unhandled rejections, and on request its memory.
 */
import { startServer } from '@questkit/example-connect';
import { API_KEY, CONNECT_SECRET } from '../harness/secrets.js';
import type { ChildMessage, ParentMessage } from './protocol.js';
import { snapshotPrototypes } from './prototypes.js';

const prototypes = snapshotPrototypes();
let unhandledRejections = 0;

function send(message: ChildMessage): void {
  if (process.connected) process.send?.(message);
}

process.on('unhandledRejection', (reason) => {
  unhandledRejections++;
  send({ type: 'unhandled-rejection', text: String(reason) });
});
process.on('disconnect', () => process.exit(0));

const server = await startServer({ apiKey: API_KEY, connectSecret: CONNECT_SECRET, port: 0 });

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

send({ type: 'listening', port: Number(new URL(server.url).port) });
