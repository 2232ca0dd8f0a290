import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliIo } from './io.js';
import { main } from './main.js';

// Bidi controls reorder the text around them in a bidi-aware terminal: an endpoint's answer could
// make `questkit check` show a verdict or a file name other than the one printed.
const BIDI = ['\u061c', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e'];
const ISOLATES = ['\u2066', '\u2067', '\u2068', '\u2069'];
const EVERY_BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

let server: Server | undefined;
afterEach(async () => {
  if (!server) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server!.close(() => resolve()));
  server = undefined;
});

// Answers every call 401 (a failed check, so the answer is printed) with bidi controls in it.
async function bidiEndpoint(): Promise<string> {
  const body = `PASS${[...BIDI, ...ISOLATES].join('x')}\u202eexe.txt\u2066 fail\u2069`;
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: body }));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/verify`;
}

function captureIo(): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: { write: (text: string) => out.push(text), isTTY: false },
    stderr: { write: (text: string) => err.push(text), isTTY: false },
    env: {},
    writeFile: async () => {},
    onInterrupt: () => () => {},
  };
}

describe('questkit check and an answer carrying bidi controls', () => {
  it('prints every bidi control escaped, as it does C0, C1 and ESC', async () => {
    const url = await bidiEndpoint();
    const io = captureIo();
    const args = ['check', url, '--no-api-key', '--only', 'claim', '--verbose'];
    await main([...args, '--timeout', '10000'], io);
    const printed = io.out.join('') + io.err.join('');
    expect(printed).toContain('PASS');
    expect(printed).not.toMatch(EVERY_BIDI);
    for (const c of [...BIDI, ...ISOLATES]) {
      expect(printed).toContain(`\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    }
  });
});
