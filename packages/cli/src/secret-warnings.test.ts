import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CHECK_FLAGS } from './commands/check.js';
import { CHECK_WEBHOOK_FLAGS } from './commands/check-webhook.js';
import { MOCK_FLAGS } from './commands/mock/flags.js';
import { fakeIo } from './fake-io.testkit.js';
import { main } from './main.js';
import { secretWarnings } from './secret-warnings.js';

// Info item of the fifth round: a key given on the command line (readable by every user of the
// machine through `ps`, kept in shell history) or sent over plain http beyond loopback, without
// a word.

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function endpoint(): Promise<string> {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end('{"message":"Not verified."}');
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/verify`;
}

describe('a secret in argv or over plain http', () => {
  it('questkit check --api-key <key> warns once, naming the environment variable, never the key', async () => {
    const url = await endpoint();
    const io = fakeIo();
    await main(['check', url, '--api-key', 'argv-key-0123456789'], io);
    const err = io.err.join('');
    expect(err).toMatch(/Warning: --api-key on the command line .* QUEST_API_KEY/);
    expect(err.split('--api-key on the command line').length - 1).toBe(1);
    expect(io.out.join('') + err).not.toContain('argv-key-0123456789');
  });

  it('the same key from the environment: no warning', async () => {
    const url = await endpoint();
    const io = fakeIo({ env: { QUEST_API_KEY: 'env-key-0123456789' } });
    await main(['check', url], io);
    expect(io.err.join('')).not.toMatch(/Warning: --api-key/);
  });

  it('names plain http beyond loopback, and only there', () => {
    const flags = { 'api-key': 'k' };
    expect(
      secretWarnings(
        CHECK_FLAGS,
        ['check', 'http://verify.example/q'],
        ['http://verify.example/q'],
        flags,
      ),
    ).toEqual([expect.stringMatching(/plain http to verify\.example: the API key .* https/)]);
    expect(
      secretWarnings(
        CHECK_FLAGS,
        ['check', 'https://verify.example/q'],
        ['https://verify.example/q'],
        flags,
      ),
    ).toEqual([]);
    expect(
      secretWarnings(
        CHECK_FLAGS,
        ['check', 'http://localhost:4010/q'],
        ['http://localhost:4010/q'],
        flags,
      ),
    ).toEqual([]);
    // No secret to carry: nothing to say.
    expect(
      secretWarnings(
        CHECK_FLAGS,
        ['check', 'http://verify.example/q'],
        ['http://verify.example/q'],
        {},
      ),
    ).toEqual([]);
  });

  it('questkit mock --api-key warns too; --secret of check-webhook as well', () => {
    expect(secretWarnings(MOCK_FLAGS, ['--api-key', 'x'], [], { 'api-key': 'x' })).toEqual([
      expect.stringMatching(/--api-key on the command line .* QUESTKIT_MOCK_API_KEY/),
    ]);
    expect(
      secretWarnings(
        CHECK_WEBHOOK_FLAGS,
        ['--secret=x', 'https://h.example'],
        ['https://h.example'],
        { secret: 'x' },
      ),
    ).toEqual([expect.stringMatching(/--secret on the command line .* QUESTKIT_WEBHOOK_SECRET/)]);
  });
});
