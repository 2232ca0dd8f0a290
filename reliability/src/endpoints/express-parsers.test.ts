/**
 * A keyless body trickled to the Express verification endpoint, with and without a body parser
 * in front of it. The README's setup (no parser before the endpoint) must answer before the body
 * ends; behind a parser the answer waits for the last byte (body-parser has no read timeout),
 * which is what the README says of it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ADAPTER_LABELS } from '../harness/adapters.js';
import { messageOf } from '../harness/contract.js';
import { open, readResponse } from '../harness/raw-http.js';
import { startServer } from '../harness/server-process.js';
import { record } from '../report/record.js';
import { ROUTES } from '../servers/protocol.js';

/** Bytes trickled, one every {@link GAP_MS}: about 3 s in all. */
const BYTES = 15;
const GAP_MS = 200;

/** Trickles a keyless body; how many bytes were sent when the answer came, and the answer. */
async function trickle(port: number, path: string) {
  const socket = await open(port);
  socket.on('error', () => {});
  const head = [
    `POST ${path} HTTP/1.1`,
    'host: 127.0.0.1',
    'content-type: application/json',
    `content-length: ${BYTES}`,
  ];
  let sent = 0;
  let sentAtAnswer = -1;
  const answer = readResponse(socket, { timeoutMs: 20_000 }).then((response) => {
    sentAtAnswer = sent;
    return response;
  });
  socket.write(`${head.join('\r\n')}\r\n\r\n`);
  // Stops once answered; the bound is the body's length.
  while (sent < BYTES && sentAtAnswer === -1 && !socket.destroyed) {
    socket.write(sent === 0 ? '{' : ' ');
    sent++;
    await sleep(GAP_MS);
  }
  try {
    return { response: await answer, sentAtAnswer };
  } finally {
    socket.destroy();
  }
}

describe.each(['express', 'express4'] as const)('a keyless trickled body on %s', (adapter) => {
  it('is refused before its end without a parser in front, after its end behind one', async () => {
    const server = await startServer(adapter, { timeoutMs: 8_000 });
    try {
      const bare = await trickle(server.port, ROUTES.verify);
      const parsed = await trickle(server.port, ROUTES.verifyParsed);
      const violations: string[] = [];
      if (bare.sentAtAnswer >= BYTES) violations.push('the bare endpoint waited for the body');
      record({
        area: 'Verification endpoints: body parsers',
        subject: `${ADAPTER_LABELS[adapter]}: keyless body, ${BYTES} bytes at ${GAP_MS} ms`,
        requests: 2,
        faults: 2,
        held:
          `endpoint alone (the README's setup): 400 after ${bare.sentAtAnswer} of ${BYTES} bytes; ` +
          `behind express.json(): 400 after ${parsed.sentAtAnswer} of ${BYTES} (the parser reads ` +
          'the whole body before the key check, as the README says)',
        violations: violations.length,
      });
      expect(violations).toEqual([]);
      expect(bare.response.status).toBe(400);
      expect(messageOf(bare.response)).toMatch(/did not receive the API key/);
      // Behind a parser the key is checked only once the whole body is in.
      expect(parsed.sentAtAnswer).toBe(BYTES);
      expect(messageOf(parsed.response)).toMatch(/did not receive the API key/);
    } finally {
      await server.close();
    }
  });
});
