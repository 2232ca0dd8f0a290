import { readFile } from 'node:fs/promises';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookReport } from '@questkit/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { CHECK_WEBHOOK_FLAGS } from './commands/check-webhook.js';
import { COMMANDS } from './commands/index.js';
import { fakeIo } from './fake-io.testkit.js';
import { main } from './main.js';

// `questkit check-webhook` in-process, through `main`, against receivers on loopback: its exit
// codes are those of `check` (0 passed, 1 failed or not judged, 2 usage error).

const SECRET = 'cli-webhook-secret-51c0';

let server: Server | undefined;
afterEach(async () => {
  if (!server) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server!.close(() => resolve()));
  server = undefined;
});

async function receiver(listener: RequestListener): Promise<string> {
  server = createServer(listener);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

/** 200 to the right secret in the body, 401 to any other. */
const correct: RequestListener = (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const { secret } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { secret?: string };
    res.writeHead(secret === SECRET ? 200 : 401, { 'content-type': 'application/json' });
    res.end('{}');
  });
};

describe('questkit check-webhook', () => {
  it('exits 0 on a correct receiver and prints the verdict, never the secret', async () => {
    const url = await receiver(correct);
    const io = fakeIo();
    expect(await main(['check-webhook', url, '--secret', SECRET], io, COMMANDS)).toBe(0);
    const out = io.out.join('');
    expect(out).toMatch(/PASSED: the platform's deliveries will succeed\./);
    expect([out, ...io.err].join('')).not.toContain(SECRET);
    // Outside a terminal, one line says the run started, as check's does: the report lists each
    // check once.
    expect(io.err.join('')).toMatch(
      /^Warning: --secret on the command line [^\n]*\nquestkit check-webhook: \d+ checks against http:\/\/127\.0\.0\.1:\d+\/\S*\n$/,
    );
  });

  it('exits 1 on a receiver that wants a signature header, with JSON and JUnit reports', async () => {
    const url = await receiver((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(401).end('{"error":"No signature"}'));
    });
    const io = fakeIo({ env: { QUESTKIT_WEBHOOK_SECRET: SECRET } });
    const code = await main(['check-webhook', url, '--json', '--junit', 'out.xml'], io, COMMANDS);
    expect(code).toBe(1);
    const report = JSON.parse(io.out.join('')) as WebhookReport;
    expect(report.summary.verdict).toBe('fail');
    expect(report.summary.headline).toMatch(/no signature header/);
    expect(io.files.get('out.xml')).toMatch(/<failure message="answered 401/);
    expect(io.err).toEqual([]);
  });

  it('exits 1 when nothing answers, and 2 on a usage error', async () => {
    const url = await receiver(correct);
    server!.closeAllConnections();
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    const io = fakeIo();
    expect(await main(['check-webhook', url, '--secret', SECRET], io, COMMANDS)).toBe(1);
    expect(io.out.join('')).toMatch(/NOT JUDGED/);

    const missing = fakeIo();
    expect(await main(['check-webhook', url], missing, COMMANDS)).toBe(2);
    expect(missing.err.join('')).toMatch(/--secret is missing/);
    const bad = fakeIo();
    expect(
      await main(['check-webhook', 'localhost:3000/hooks', '--secret', 'x'], bad, COMMANDS),
    ).toBe(2);
    expect(bad.err.join('')).toMatch(/no scheme/);
  });

  it('is listed in the help with its flags', async () => {
    const io = fakeIo();
    expect(await main(['--help'], io, COMMANDS)).toBe(0);
    expect(io.out.join('')).toMatch(/check-webhook +Check a webhook receiver/);
    const help = fakeIo();
    expect(await main(['check-webhook', '--help'], help, COMMANDS)).toBe(0);
    expect(help.out.join('')).toMatch(/--secret <secret>.*env QUESTKIT_WEBHOOK_SECRET/);
    expect(help.out.join('')).toMatch(/Exit codes: 0 passed; 1 a check failed/);
  });

  it('has a README row for every flag with its environment twin', async () => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## `questkit check-webhook`'));
    const end = section.indexOf('\n## ', 5);
    const lines = section.slice(0, end).split('\n');
    for (const flag of CHECK_WEBHOOK_FLAGS) {
      const row = lines.find((line) => line.startsWith(`| \`--${flag.name}`));
      expect(row, flag.name).toBeDefined();
      if (flag.env) expect(row).toContain(`\`${flag.env}\``);
    }
  });
});
