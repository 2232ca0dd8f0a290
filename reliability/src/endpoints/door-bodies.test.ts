/**
 * Huge bodies at every door endpoint that is not the verification endpoint (that one is in
 * faults.test.ts): the connect flow's confirmation POST and the webhook receiver, in every
 * adapter, and the Hono example community's `/connect` and `/login`. A 150 MiB upload, declared
 * or chunked, must be refused with a 4xx after a bounded part of it, the connection closed, and
 * the server's peak memory must not follow the body's size.
 */
import { describe, expect, it } from 'vitest';
import { ADAPTER_LABELS, SUITE_ADAPTERS } from '../harness/adapters.js';
import { exchange } from '../harness/raw-http.js';
import { type ChildServer, startExampleConnect, startServer } from '../harness/server-process.js';
import { streamUpload } from '../harness/stream.js';
import { mb, record } from '../report/record.js';
import { ROUTES } from '../servers/protocol.js';

const UPLOAD_BYTES = 150 * 1024 * 1024;
/** What an upload may add to the server's peak memory, as in faults.test.ts. */
const PEAK_RSS_LIMIT = 32 * 1024 * 1024;
const AREA = 'Door endpoints: huge bodies';

type Framing = 'declared' | 'chunked';
const FRAMINGS: readonly Framing[] = ['declared', 'chunked'];

function head(path: string, contentType: string, framing: Framing): Buffer {
  const lines = [
    `POST ${path} HTTP/1.1`,
    'host: 127.0.0.1',
    `content-type: ${contentType}`,
    framing === 'chunked' ? 'transfer-encoding: chunked' : `content-length: ${UPLOAD_BYTES}`,
  ];
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

/** Uploads 150 MiB to a fresh server and records what held. */
async function attack(
  start: () => Promise<ChildServer>,
  subject: string,
  path: string,
  contentType: string,
  framing: Framing,
): Promise<string[]> {
  const server = await start();
  const violations: string[] = [];
  try {
    // A few small requests first, so the peak measured is the upload's, not the start-up's.
    for (let i = 0; i < 20; i++) {
      const warm = `GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n`;
      await exchange(server.port, Buffer.from(warm, 'latin1'), { timeoutMs: 5_000 });
    }
    const before = await server.stats({ gc: true });
    const outcome = await streamUpload(server.port, head(path, contentType, framing), {
      totalBytes: UPLOAD_BYTES,
      chunked: framing === 'chunked',
      timeoutMs: 60_000,
    });
    const after = await server.stats();
    const growth = after.maxRss - before.maxRss;
    const status = outcome.response?.status;
    if (outcome.response && (status === undefined || status < 400 || status > 499)) {
      violations.push(`status ${status}`);
    }
    // A reset can discard an answer written while the client was still sending: the close is
    // then the refusal (as in faults.test.ts).
    if (!outcome.response && !outcome.closedByServer)
      violations.push(`no answer: ${outcome.error}`);
    if (!outcome.closedByServer) violations.push('connection left open to drain the rest');
    if (outcome.bytesSent >= UPLOAD_BYTES) violations.push('the whole body was taken in');
    if (growth >= PEAK_RSS_LIMIT) violations.push(`peak RSS grew by ${mb(growth)}`);
    if (after.unhandledRejections > 0) violations.push('unhandled rejection');
    record({
      area: AREA,
      subject: `${subject}: 150 MiB ${framing} to POST ${path}`,
      requests: 21,
      faults: 1,
      held:
        `${outcome.response ? `refused with ${status}` : 'refused (answer lost to the reset)'}` +
        ` after the client sent ${mb(outcome.bytesSent)}; server peak RSS +${mb(Math.max(0, growth))}` +
        ` (limit ${mb(PEAK_RSS_LIMIT)})${outcome.closedByServer ? '; connection closed' : ''}`,
      violations: violations.length,
    });
  } finally {
    await server.close();
  }
  return violations;
}

const DOORS = [
  { path: ROUTES.connect, contentType: 'application/x-www-form-urlencoded' },
  { path: ROUTES.webhooks, contentType: 'application/json' },
] as const;

describe.each(SUITE_ADAPTERS)('a 150 MiB body to the %s door endpoints', (adapter) => {
  const cases = DOORS.flatMap((door) => FRAMINGS.map((framing) => ({ ...door, framing })));
  it.each(cases)('is refused without being taken in ($path, $framing)', async (door) => {
    const violations = await attack(
      () => startServer(adapter, { timeoutMs: 8_000 }),
      ADAPTER_LABELS[adapter],
      door.path,
      door.contentType,
      door.framing,
    );
    expect(violations).toEqual([]);
  });
});

describe('a 150 MiB body to the example community (examples/connect, Hono)', () => {
  const cases = ['/connect', '/login'].flatMap((path) =>
    FRAMINGS.map((framing) => ({ path, framing })),
  );
  it.each(cases)('is refused without being taken in ($path, $framing)', async ({
    path,
    framing,
  }) => {
    const violations = await attack(
      startExampleConnect,
      'examples/connect',
      path,
      'application/x-www-form-urlencoded',
      framing,
    );
    expect(violations).toEqual([]);
  });
});
