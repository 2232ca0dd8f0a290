/**
 * A body refused before it was read (declared over the limit, or a wrong key), sent by a client
 * that reads the answer only once it has sent the whole body, as most HTTP clients do. An endpoint
 * that answers and closes at once resets the connection when the rest of the body arrives, and
 * the client loses the answer to the reset (EPIPE on its write, then nothing to read). The
 * endpoint must read and discard the rest first, so the client reads the refusal, and the
 * connection then serves the next claim. Before core drained such bodies, Express 4 and 5 and
 * Fastify lost the answer to the 1 and 3 MB bodies every time here.
 */
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ADAPTER_LABELS, SUITE_ADAPTERS } from '../harness/adapters.js';
import { claimHead, claimSpec } from '../harness/claims.js';
import { contractViolations } from '../harness/contract.js';
import { open, readResponse, serializeRequest } from '../harness/raw-http.js';
import { startServer } from '../harness/server-process.js';
import { record } from '../report/record.js';
import { ROUTES } from '../servers/protocol.js';

const LIMIT = 64 * 1024;

/** Writes `bytes` with the socket paused, and waits until the kernel took them (or the write failed). */
function writeUnread(socket: Socket, bytes: Buffer): Promise<string | undefined> {
  socket.pause();
  return new Promise((resolve) => {
    socket.write(bytes, (error) =>
      resolve(error ? (error as NodeJS.ErrnoException).code : undefined),
    );
  });
}

const CASES = [
  { name: '70 kB declared, over the 64 KiB limit', bytes: 70_000, key: true },
  { name: '1 MB declared', bytes: 1_000_000, key: true },
  { name: '3 MB declared', bytes: 3_000_000, key: true },
  { name: '1 MB with a wrong key', bytes: 1_000_000, key: false },
] as const;

/**
 * Sends `head` and a body of `bytes` spaces on a fresh connection, reading nothing until the
 * kernel took them all, then reads the answer: a 400 of the contract. The connection then serves
 * the next claim, on `route`. The violations seen.
 */
async function refusalReached(
  port: number,
  head: Buffer,
  bytes: number,
  route: string,
): Promise<string[]> {
  const socket = await open(port);
  const violations: string[] = [];
  try {
    const answer = readResponse(socket, { timeoutMs: 10_000 });
    const writeError = await writeUnread(socket, Buffer.concat([head, Buffer.alloc(bytes, 0x20)]));
    if (writeError) violations.push(`the body's write failed: ${writeError}`);
    socket.resume();
    const response = await answer.catch((error: Error) => error);
    if (response instanceof Error) return [...violations, `no answer: ${response.message}`];
    violations.push(...contractViolations(response, { head: false }));
    if (response.status !== 400) violations.push(`status ${response.status}`);
    // The whole body was read: the connection serves the next claim.
    const next = readResponse(socket, { timeoutMs: 10_000 });
    // The verification routes' handler claims this requestId (branch 0 of answerFromClaim).
    socket.write(serializeRequest(claimSpec(route, 'quest-1', 'next')));
    const second = await next.catch((error: Error) => error);
    if (second instanceof Error) violations.push(`next claim on the connection: ${second.message}`);
    else if (second.status !== 200) violations.push(`next claim: status ${second.status}`);
    return violations;
  } finally {
    socket.destroy();
  }
}

describe.each(SUITE_ADAPTERS)('a body the %s endpoint refuses unread', (adapter) => {
  it.each(CASES)('reaches a client that reads only after sending it ($name)', async (item) => {
    const server = await startServer(adapter, { maxBodyBytes: LIMIT, timeoutMs: 5_000 });
    try {
      let head = claimHead(ROUTES.verify, { contentLength: item.bytes });
      if (!item.key)
        head = Buffer.from(head.toString('latin1').replace(/x-api-key: .*/, 'x-api-key: wrong'));
      const violations = await refusalReached(server.port, head, item.bytes, ROUTES.verify);
      record({
        area: 'Verification endpoints: early refusals',
        subject: `${ADAPTER_LABELS[adapter]}: ${item.name}`,
        requests: 2,
        faults: 1,
        held: 'the refusal read after the whole body was sent; the next claim answered on the connection',
        violations: violations.length,
      });
      expect(violations).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

/**
 * body-parser refuses some bodies on their headers alone, without reading a byte: a charset other
 * than UTF-8 (415), a content-encoding it cannot decode (415). The endpoint behind it answers
 * the parser's error, and must drain the body first just the same.
 */
const PARSER_REFUSALS = [
  {
    name: 'a charset body-parser refuses',
    headers: 'content-type: application/json; charset=nonsense',
  },
  {
    name: 'a content-encoding body-parser cannot decode',
    headers: 'content-type: application/json\r\ncontent-encoding: compress',
  },
] as const;

describe.each([
  'express',
  'express4',
] as const)('a body express.json() refuses unread on %s', (adapter) => {
  it.each(
    PARSER_REFUSALS,
  )('reaches a client that reads only after sending it ($name)', async (item) => {
    const server = await startServer(adapter, { maxBodyBytes: LIMIT, timeoutMs: 5_000 });
    try {
      const bytes = 1_000_000;
      const head = claimHead(ROUTES.verifyParsed, { contentLength: bytes })
        .toString('latin1')
        .replace('content-type: application/json\r\n', '')
        .replace('\r\n\r\n', `\r\n${item.headers}\r\n\r\n`);
      const violations = await refusalReached(
        server.port,
        Buffer.from(head, 'latin1'),
        bytes,
        ROUTES.verifyParsed,
      );
      record({
        area: 'Verification endpoints: early refusals',
        subject: `${ADAPTER_LABELS[adapter]} behind express.json(): ${item.name}, 1 MB`,
        requests: 2,
        faults: 1,
        held: 'the refusal read after the whole body was sent; the next claim answered on the connection',
        violations: violations.length,
      });
      expect(violations).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
