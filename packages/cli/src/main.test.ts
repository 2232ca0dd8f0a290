import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Command } from './command.js';
import type { CliIo } from './io.js';
import { main } from './main.js';

interface FakeIo extends CliIo {
  out: string[];
  err: string[];
  interrupt?: () => void;
}

function fakeIo(
  options: {
    tty?: boolean;
    env?: Record<string, string>;
    onErr?: (text: string, io: FakeIo) => void;
  } = {},
): FakeIo {
  const io: FakeIo = {
    out: [],
    err: [],
    stdout: { write: (text: string) => io.out.push(text), isTTY: options.tty === true },
    stderr: {
      write: (text: string) => {
        io.err.push(text);
        options.onErr?.(text, io);
      },
      isTTY: options.tty === true,
    },
    env: options.env ?? {},
    writeFile: async () => {},
    onInterrupt: (listener) => {
      io.interrupt = listener;
      return () => {
        io.interrupt = undefined;
      };
    },
  };
  return io;
}

let server: Server | undefined;
afterEach(async () => {
  if (!server) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server!.close(() => resolve()));
  server = undefined;
});

// Answers everything with 400 {message}: every check passes.
async function politeEndpoint(): Promise<string> {
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

// The platform's 10 s limit: these endpoints answer at once, so a busy machine changes no verdict.
const FAST = ['--timeout', '10000', '--burst', '2', '--samples', '2'];

describe('main', () => {
  it('on a terminal, shows a progress line on stderr and colors on stdout', async () => {
    const url = await politeEndpoint();
    const io = fakeIo({ tty: true });
    const code = await main(['check', url, '--no-api-key', '--only', 'claim,body.', ...FAST], io);
    expect(code).toBe(0);
    const err = io.err.join('');
    expect(err).toContain('\r\u001b[2K[1/7] ');
    expect(err).toMatch(/\[4\/7\] .*body\.oversize/);
    expect(err).toMatch(/\[7\/7\] .*member\.stays-up/);
    expect(err.endsWith('\r\u001b[2K')).toBe(true);
    expect(io.out.join('')).toContain('\u001b[32mPASS\u001b[39m');
  });

  it('reads the URL from QUESTKIT_URL when none is given', async () => {
    const url = await politeEndpoint();
    const io = fakeIo({ env: { QUESTKIT_URL: url, QUESTKIT_ONLY: 'claim' } });
    // Without a key, the key check is not judged, and neither is the run: exit 1, not a pass.
    expect(await main(['check', ...FAST], io)).toBe(1);
    expect(io.out.join('')).toContain(`questkit check ${url}`);
    expect(io.out.join('')).toContain('4 checks: 3 passed, 0 warned, 0 failed, 1 not judged');
  });

  it('drops colors with --no-color or NO_COLOR', async () => {
    const url = await politeEndpoint();
    for (const [args, env] of [
      [['--no-color'], {}],
      [[], { NO_COLOR: '1' }],
    ] as const) {
      const io = fakeIo({ tty: true, env });
      const keyless = ['--no-api-key', '--only', 'claim'];
      expect(await main(['check', url, ...keyless, ...args, ...FAST], io)).toBe(0);
      expect(io.out.join('')).not.toContain('\u001b[');
    }
  });

  it('stops on Ctrl-C, skips what is left and exits 1', async () => {
    const url = await politeEndpoint();
    const io = fakeIo({
      tty: true,
      onErr: (text, self) => {
        if (/\[\s*2\//.test(text)) self.interrupt?.();
      },
    });
    const code = await main(['check', url, ...FAST], io);
    expect(code).toBe(1);
    expect(io.out.join('')).toMatch(/SKIP.*\d+ checks: the run was stopped/);
    expect(io.interrupt).toBeUndefined();
  });

  it('dispatches to any registered command with its flags parsed', async () => {
    const seen: unknown[] = [];
    const mock: Command = {
      name: 'mock',
      summary: 'Run the mock platform',
      usage: 'mock [options]',
      description: 'A stand-in.',
      flags: [{ name: 'port', type: 'integer', env: 'QUESTKIT_PORT', description: 'Port' }],
      run: async (parsed) => {
        seen.push(parsed.values);
        return 0;
      },
    };
    const io = fakeIo({ env: { QUESTKIT_PORT: '4010' } });
    expect(await main(['mock'], io, [mock])).toBe(0);
    expect(seen).toEqual([{ port: 4010 }]);

    const help = fakeIo();
    expect(await main(['mock', '--help'], help, [mock])).toBe(0);
    expect(help.out.join('')).toMatch(
      /Usage: questkit mock \[options\][\s\S]*--port <n>\s+Port \(env QUESTKIT_PORT\)[\s\S]*-h, --help/,
    );
  });

  it('turns an unexpected error into one line and exit 1', async () => {
    const broken: Command = {
      name: 'broken',
      summary: 'Throws',
      usage: 'broken',
      description: 'Throws.',
      flags: [],
      run: async () => {
        throw new Error('disk on fire');
      },
    };
    const io = fakeIo();
    expect(await main(['broken'], io, [broken])).toBe(1);
    expect(io.err.join('')).toBe('questkit broken: disk on fire\n');
  });
});
