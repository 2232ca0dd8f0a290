import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowser, readForm } from './browser.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
const routes = new Map<string, Handler>();
let origin: string;
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => {
    body += chunk.toString();
  });
  req.on('end', () => {
    const route = routes.get(`${req.method} ${new URL(req.url ?? '/', origin).pathname}`);
    if (route) route(req, res, body);
    else res.writeHead(404).end();
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  routes.set('GET /echo', (req, res) =>
    res.end(`${req.method} cookie=${req.headers.cookie ?? ''}`),
  );
  routes.set('POST /echo', (req, res, body) =>
    res.end(`${req.method} cookie=${req.headers.cookie ?? ''} body=${body}`),
  );
  routes.set('GET /set', (_req, res) => {
    res.setHeader('set-cookie', [
      'sid=abc; Path=/; HttpOnly; SameSite=Lax',
      'scoped=1; Path=/admin',
      'gone=1; Max-Age=0',
    ]);
    res.writeHead(302, { location: '/echo' }).end();
  });
  routes.set('GET /logout', (_req, res) => {
    res.setHeader('set-cookie', 'sid=; Path=/; Max-Age=0');
    res.writeHead(303, { location: '/echo' }).end();
  });
  routes.set('POST /see-other', (_req, res) => res.writeHead(303, { location: '/echo' }).end());
  routes.set('POST /temporary', (_req, res) => res.writeHead(307, { location: '/echo' }).end());
  routes.set('GET /loop', (_req, res) => res.writeHead(302, { location: '/loop' }).end());
  routes.set('GET /form', (_req, res) =>
    res.end(
      '<form method="post" action="/login?x=1&amp;y=2"><input type="hidden" name="returnTo" value="/connect?state=a&amp;b"><input name="username"></form>',
    ),
  );
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('createBrowser', () => {
  it('keeps cookies by path, drops expired ones, and records every hop', async () => {
    const browser = createBrowser();
    const page = await browser.open(`${origin}/set`);
    expect(page.body).toBe('GET cookie=sid=abc');
    expect(page.hops.map((hop) => [hop.status, hop.location])).toEqual([
      [302, `${origin}/echo`],
      [200, undefined],
    ]);
    expect(page.hops[0]!.cookiesSet).toEqual(['sid', 'scoped', 'gone']);
    expect(browser.cookieHeader(`${origin}/admin/x`)).toBe('sid=abc; scoped=1');
    expect(browser.cookieHeader(`${origin}/administrator`)).toBe('sid=abc');
    const out = await browser.open(`${origin}/logout`);
    expect(out.body).toBe('GET cookie=');
  });

  it('turns a POST into a GET on 303 and repeats it on 307', async () => {
    const browser = createBrowser();
    expect((await browser.submit(`${origin}/see-other`, { a: '1' })).body).toBe('GET cookie=');
    expect((await browser.submit(`${origin}/temporary`, { a: '1' })).body).toBe(
      'POST cookie= body=a=1',
    );
  });

  it('gives up after the redirect bound', async () => {
    await expect(createBrowser({ maxRedirects: 3 }).open(`${origin}/loop`)).rejects.toThrow(
      /more than 3 redirects/,
    );
  });
});

describe('readForm', () => {
  it('reads the action and the fields, entities decoded', async () => {
    const page = await createBrowser().open(`${origin}/form`);
    expect(readForm(page)).toEqual({
      action: `${origin}/login?x=1&y=2`,
      fields: { returnTo: '/connect?state=a&b', username: '' },
    });
    expect(readForm({ url: origin, body: '<p>no form</p>' })).toBeNull();
  });
});
