import { readFileSync } from 'node:fs';
import { type ConnectLink, createConnectRedirect, verifySignedUrl } from '@questkit/core';
import { type Context, Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ConnectEndpointOptions, connectEndpoint } from './connect.js';
import { listen, send } from './http.testkit.js';

// The platform's signing vectors, copied from shared/vectors (core's tests check the copy).
interface Vectors {
  secret: string;
  valid: {
    kind: string;
    url: string;
    callback?: string;
    input?: { callback: string; identifier: string };
  }[];
  invalid: { why: string; url: string }[];
}
const vectors: Vectors = JSON.parse(
  readFileSync(new URL('../../../vectors/connect.json', import.meta.url), 'utf8'),
);
const { secret } = vectors;
const PUBLIC = 'https://app.example.com';
const IDENTIFIER = 'user-42';
// What a TLS-terminating proxy forwards: plain HTTP, the public host, the original scheme.
const PROXIED = {
  host: 'app.example.com',
  'x-forwarded-proto': 'https',
  'x-forwarded-for': '203.0.113.9',
};

const redirects = vectors.valid.filter((vector) => vector.url.startsWith(`${PUBLIC}/connect?`));
const paramOf = (url: string, name: string) => new URL(url).searchParams.get(name);
const callbackOf = (url: string) => paramOf(url, 'callback') ?? paramOf(url, 'callbackUrl')!;
// Callback vectors whose input matches a redirect above: the exact URL the member must reach.
const expectedCallback = (callback: string) =>
  vectors.valid.find(
    (vector) =>
      vector.kind === 'callback' &&
      vector.input?.callback === callback &&
      vector.input.identifier === IDENTIFIER,
  )?.url;

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function connectApp(options: Partial<ConnectEndpointOptions> = {}) {
  const links: ConnectLink[] = [];
  const contexts: Context[] = [];
  const errors: unknown[] = [];
  const app = new Hono();
  app.get(
    '/connect',
    connectEndpoint({
      confirm: false,
      secret,
      publicUrl: PUBLIC,
      getIdentifier: () => IDENTIFIER,
      onLinked: (link, c) => {
        links.push(link);
        contexts.push(c);
      },
      onError: (error) => errors.push(error),
      ...options,
    }),
  );
  return { app, links, contexts, errors };
}

async function overProxy(app: Hono, url: string, headers: Record<string, string> = {}) {
  const server = await listen(app);
  servers.push(server);
  const { pathname, search } = new URL(url);
  return send(server.origin, {
    method: 'GET',
    path: pathname + search,
    headers: { ...PROXIED, ...headers },
  });
}

describe('connectEndpoint: the shared vectors behind a TLS proxy, with publicUrl', () => {
  it('has redirect vectors to replay', () => {
    expect(redirects.length).toBeGreaterThanOrEqual(4);
    expect(vectors.invalid.length).toBeGreaterThanOrEqual(8);
  });

  it.each(
    redirects.map((vector) => [vector.kind, vector] as const),
  )('accepts valid %s: 302 to the signed callback', async (_kind, vector) => {
    const { app, links, contexts } = connectApp();
    const answer = await overProxy(app, vector.url);
    expect(answer.status).toBe(302);
    expect(answer.headers['cache-control']).toBe('no-store');
    const location = String(answer.headers.location);
    const verified = await verifySignedUrl(location, secret);
    expect(verified.ok).toBe(true);
    if (!verified.ok) return;
    expect(verified.params.get('identifier')).toBe(IDENTIFIER);
    expect(location.startsWith(`${new URL(callbackOf(vector.url)).origin}/`)).toBe(true);
    const fixed = expectedCallback(callbackOf(vector.url));
    if (fixed) expect(location).toBe(fixed);
    expect(links).toEqual([
      {
        svcUserId: paramOf(vector.url, 'svcUserId'),
        identifier: IDENTIFIER,
        callback: vector.callback ?? callbackOf(vector.url),
      },
    ]);
    expect(contexts[0]?.req.path).toBe('/connect');
  });

  it('lands exactly on a fixed callback vector', async () => {
    const { app } = connectApp();
    const first = redirects.find(
      (vector) => expectedCallback(callbackOf(vector.url)) !== undefined,
    );
    expect(first).toBeDefined();
    const answer = await overProxy(app, first!.url);
    expect(answer.headers.location).toBe(expectedCallback(callbackOf(first!.url)));
  });

  it.each(
    vectors.invalid.map((vector) => [vector.why, vector] as const),
  )('refuses invalid (%s): 400, nothing linked', async (_why, vector) => {
    const { app, links } = connectApp();
    const page = await overProxy(app, vector.url, { accept: 'text/html,application/xhtml+xml' });
    expect(page.status).toBe(400);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).toContain('<h1>Account not linked</h1>');
    const json = await overProxy(app, vector.url, { accept: 'application/json' });
    expect(json.status).toBe(400);
    const body = JSON.parse(json.text) as { message: string; reason: string };
    expect(body.message.length).toBeGreaterThan(0);
    expect(json.text).not.toContain(secret);
    expect(links).toEqual([]);
  });

  it('uses publicUrl whatever Host the server sees', async () => {
    const { app } = connectApp();
    const answer = await overProxy(app, redirects[0]!.url, { host: '127.0.0.1:9' });
    expect(answer.status).toBe(302);
  });

  it('refuses a valid link without publicUrl: Hono guesses nothing from X-Forwarded-*', async () => {
    const { app, links } = connectApp({ publicUrl: undefined });
    const answer = await overProxy(app, redirects[0]!.url, {
      accept: 'application/json',
      'x-forwarded-host': 'app.example.com',
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toMatchObject({ reason: 'bad_signature' });
    expect(links).toEqual([]);
  });

  it('accepts a valid link without publicUrl where the request URL is the public one', async () => {
    // As on Workers or Deno: the runtime hands Hono the URL the member's browser used.
    const { app } = connectApp({ publicUrl: undefined });
    const response = await app.request(redirects[0]!.url);
    expect(response.status).toBe(302);
    expect((await verifySignedUrl(response.headers.get('location')!, secret)).ok).toBe(true);
  });

  it('in-process: accepts every valid vector and refuses every invalid one', async () => {
    const { app } = connectApp();
    for (const vector of redirects) {
      const { pathname, search } = new URL(vector.url);
      expect((await app.request(pathname + search)).status).toBe(302);
    }
    for (const vector of vectors.invalid) {
      const { pathname, search } = new URL(vector.url);
      expect((await app.request(pathname + search)).status).toBe(400);
    }
  });
});

describe('connectEndpoint: the whole round trip over real HTTP', () => {
  it('redirect in, login, signed callback out', async () => {
    const onLinked = vi.fn<NonNullable<ConnectEndpointOptions['onLinked']>>();
    const app = new Hono();
    app.get('/login', (c) => {
      // The community's own login: it signs the member in, then resumes where it was asked to.
      setCookie(c, 'sid', IDENTIFIER, { path: '/', httpOnly: true });
      return c.redirect(c.req.query('returnTo') ?? '/', 302);
    });
    app.get(
      '/connect',
      connectEndpoint({
        confirm: false,
        secret,
        publicUrl: PUBLIC,
        getIdentifier: (c) => getCookie(c, 'sid'),
        loginUrl: '/login',
        onLinked,
        allowedCallbackOrigins: ['https://platform.example'],
      }),
    );
    const server = await listen(app);
    servers.push(server);
    const get = (path: string, headers: Record<string, string> = {}) =>
      send(server.origin, { method: 'GET', path, headers: { ...PROXIED, ...headers } });

    const signed = await createConnectRedirect({
      redirectUrl: `${PUBLIC}/connect`,
      svcUserId: 'svc-7',
      callback: 'https://platform.example/connect/callback?session=s-9',
      secret,
    });
    const { pathname, search } = new URL(signed);

    const toLogin = await get(pathname + search);
    expect(toLogin.status).toBe(302);
    // The flow is bound to this browser: its nonce cookie goes along when it resumes.
    const nonce = String(toLogin.headers['set-cookie']).split(';')[0]!;
    const login = new URL(String(toLogin.headers.location), PUBLIC);
    expect(login.pathname).toBe('/login');
    const returnTo = login.searchParams.get('returnTo')!;
    expect(returnTo).toMatch(/^\/connect\?state=/);
    expect(returnTo).not.toContain('svc-7');
    expect(onLinked).not.toHaveBeenCalled();

    const loggedIn = await get(login.pathname + login.search);
    expect(loggedIn.status).toBe(302);
    expect(loggedIn.headers.location).toBe(returnTo);
    const cookie = String(loggedIn.headers['set-cookie']).split(';')[0]!;

    const back = await get(returnTo, { cookie: `${cookie}; ${nonce}` });
    expect(back.status).toBe(302);
    const callback = String(back.headers.location);
    const verified = await verifySignedUrl(callback, secret);
    expect(verified.ok).toBe(true);
    expect(
      callback.startsWith(
        'https://platform.example/connect/callback?session=s-9&identifier=user-42&signature=',
      ),
    ).toBe(true);
    expect(onLinked).toHaveBeenCalledTimes(1);
    expect(onLinked.mock.calls[0]![0]).toEqual({
      svcUserId: 'svc-7',
      identifier: IDENTIFIER,
      callback: 'https://platform.example/connect/callback?session=s-9',
    });
  });
});

describe('connectEndpoint: refusals and headers', () => {
  const link = () => new URL(redirects[0]!.url);
  const path = () => link().pathname + link().search;

  it('answers 400 when nobody is logged in and there is no loginUrl', async () => {
    const { app, links } = connectApp({ getIdentifier: () => undefined });
    const response = await app.request(path(), { headers: { accept: 'application/json' } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ reason: 'not_logged_in' });
    expect(links).toEqual([]);
  });

  it('answers 400 with a generic page when getIdentifier throws, and reports the error', async () => {
    const { app, errors } = connectApp({
      getIdentifier: () => {
        throw new Error('session store down: token abc');
      },
    });
    const response = await app.request(path(), { headers: { accept: 'text/html' } });
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain('We could not link your account right now.');
    expect(page).not.toContain('token abc');
    expect(errors).toHaveLength(1);
  });

  it('keeps headers an earlier middleware set, on redirects and on errors', async () => {
    const app = new Hono();
    app.use(async (c, next) => {
      c.header('x-request-id', 'req-1');
      await next();
    });
    app.get(
      '/connect',
      connectEndpoint({
        confirm: false,
        secret,
        publicUrl: PUBLIC,
        getIdentifier: () => IDENTIFIER,
      }),
    );
    const ok = await app.request(path());
    expect(ok.status).toBe(302);
    expect(ok.headers.get('x-request-id')).toBe('req-1');
    const bad = await app.request('/connect?svcUserId=x');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('x-request-id')).toBe('req-1');
  });

  it('throws a TypeError at start-up on a bad configuration', () => {
    const getIdentifier = () => IDENTIFIER;
    expect(() => connectEndpoint({ confirm: false, secret: '', getIdentifier })).toThrow(TypeError);
    expect(() =>
      connectEndpoint({
        confirm: false,
        secret,
        getIdentifier,
        publicUrl: 'https://app.example.com/connect',
      }),
    ).toThrow(TypeError);
    expect(() => connectEndpoint({ confirm: false, secret } as ConnectEndpointOptions)).toThrow(
      TypeError,
    );
  });
});
