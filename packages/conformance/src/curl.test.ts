import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { shellQuote, toCurl } from './curl.js';
import { readAll, type Served, serve } from './test-support/serve.js';

const run = promisify(execFile);
let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

interface Seen {
  method: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

async function echoServer(): Promise<Seen[]> {
  const seen: Seen[] = [];
  served = await serve(async (req, res) => {
    const body = (await readAll(req)).toString('utf8');
    seen.push({ method: req.method ?? '', headers: req.headers, body });
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end('{"message":"seen"}');
  });
  return seen;
}

async function sh(line: string, env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await run('sh', ['-c', line], { env: { ...process.env, ...env } });
  return stdout;
}

describe('toCurl', () => {
  it('quotes for a POSIX shell', () => {
    expect(shellQuote(`it's`)).toBe(`'it'\\''s'`);
  });

  it('sends the same request again, the key read from the environment', async () => {
    const seen = await echoServer();
    const body = `{"userId":"o'brien","note":"$HOME \\"q\\""}`;
    const line = toCurl(
      {
        method: 'POST',
        url: served!.url,
        headers: { 'content-type': 'application/json', 'x-api-key': 'secret-1' },
        body,
      },
      { timeoutMs: 2000, redactApiKey: 'secret-1' },
    );
    expect(line).not.toContain('secret-1');
    const output = await sh(line, { QUEST_API_KEY: 'secret-1' });
    expect(output).toMatch(/^HTTP\/1\.1 400/);
    expect(seen[0]).toMatchObject({ method: 'POST', body });
    expect(seen[0]?.headers).toMatchObject({
      'content-type': 'application/json',
      'x-api-key': 'secret-1',
    });
  });

  it('regenerates a long padded body instead of pasting it', async () => {
    const seen = await echoServer();
    const body = `{"a":1,"pad":"${'x'.repeat(50_000)}"}`;
    const line = toCurl(
      { method: 'POST', url: served!.url, headers: { 'content-type': 'application/json' }, body },
      { timeoutMs: 2000 },
    );
    expect(line.length).toBeLessThan(1000);
    await sh(line);
    expect(seen[0]?.body).toBe(body);
  });

  it('sends no body and no content-type when the request had none', async () => {
    const seen = await echoServer();
    await sh(toCurl({ method: 'GET', url: served!.url, headers: {} }, { timeoutMs: 2000 }));
    expect(seen[0]).toMatchObject({ method: 'GET', body: '' });
    expect(seen[0]?.headers['content-type']).toBeUndefined();

    await sh(
      toCurl({ method: 'POST', url: served!.url, headers: {}, body: '{}' }, { timeoutMs: 2000 }),
    );
    expect(seen[1]).toMatchObject({ method: 'POST', body: '{}' });
    expect(seen[1]?.headers['content-type']).toBeUndefined();
  });
});
