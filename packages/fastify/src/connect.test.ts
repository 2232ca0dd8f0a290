import { readFileSync } from 'node:fs';
import {
  buildConnectCallback,
  type ConnectLink,
  createConnectRedirect,
  verifySignedUrl,
} from '@questkit/core';
import Fastify, {
  type FastifyInstance,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ConnectEndpointOptions, connectEndpoint } from './connect.js';
import { inject, listen, overHttp, rawRequest } from './http.testkit.js';

// The platform's signing vectors, copied from shared/vectors (core's tests check the copy).
interface Vectors {
  secret: string;
  valid: { kind: string; url: string; svcUserId?: string; callback?: string }[];
  invalid: { why: string; url: string }[];
}
const vectors: Vectors = JSON.parse(
  readFileSync(new URL('../../../vectors/connect.json', import.meta.url), 'utf8'),
);
const { secret } = vectors;
// Redirect vectors (the raw-signed one included), with what they carry read from the URL itself.
const redirects = vectors.valid
  .filter((vector) => vector.kind !== 'callback')
  .map((vector) => {
    const params = new URL(vector.url).searchParams;
    const callback = params.get('callback') ?? params.get('callbackUrl');
    return { ...vector, svcUserId: params.get('svcUserId')!, callback: callback! };
  });
const MEMBER = 'member-42';
// What a TLS-terminating proxy in front of app.example.com adds to the request it forwards.
const PROXIED = { host: 'app.example.com', 'x-forwarded-proto': 'https' };

const pathOf = (url: string) => url.slice(url.indexOf('/', 'https://'.length));

let app: FastifyInstance;
afterEach(() => app?.close());

function build(
  options: Partial<ConnectEndpointOptions> = {},
  trustProxy: FastifyServerOptions['trustProxy'] = false,
) {
  app = Fastify({ trustProxy });
  app.register(connectEndpoint, {
    confirm: false,
    path: '/connect',
    secret,
    getIdentifier: () => MEMBER,
    onError: () => {},
    ...options,
  });
  return app;
}

describe('shared connect vectors behind a TLS proxy, with publicUrl', () => {
  it.each(
    redirects.map((vector) => [vector.kind, vector] as const),
  )('accepts the valid %s vector over HTTP', async (_kind, vector) => {
    const onLinked = vi.fn();
    const origin = await listen(build({ publicUrl: 'https://app.example.com', onLinked }));
    const answer = await rawRequest(origin, {
      method: 'GET',
      path: pathOf(vector.url),
      headers: PROXIED,
    });
    expect(answer.status).toBe(302);
    const location = answer.headers.location!;
    expect(location).toBe(await buildConnectCallback(vector.callback, MEMBER, secret));
    const verified = await verifySignedUrl(location, secret);
    expect(verified.ok && verified.params.get('identifier')).toBe(MEMBER);
    expect(onLinked).toHaveBeenCalledWith(
      { svcUserId: vector.svcUserId, identifier: MEMBER, callback: vector.callback },
      expect.objectContaining({ url: pathOf(vector.url) }),
    );
  });

  it.each(
    vectors.invalid.map((vector) => [vector.why, vector] as const),
  )('refuses the invalid vector (%s) with a 400', async (_why, vector) => {
    const onLinked = vi.fn();
    const origin = await listen(build({ publicUrl: 'https://app.example.com', onLinked }));
    const answer = await rawRequest(origin, {
      method: 'GET',
      path: pathOf(vector.url),
      headers: { ...PROXIED, accept: 'application/json' },
    });
    expect(answer.status).toBe(400);
    expect(answer.headers.location).toBeUndefined();
    expect(JSON.parse(answer.body)).toEqual({
      message: expect.any(String),
      reason: expect.any(String),
    });
    expect(onLinked).not.toHaveBeenCalled();
  });

  it('accepts the vectors in-process too', async () => {
    build({ publicUrl: 'https://app.example.com' });
    for (const vector of redirects) {
      const answer = await inject(app, {
        method: 'GET',
        path: pathOf(vector.url),
        headers: PROXIED,
      });
      expect(answer.status).toBe(302);
    }
    for (const vector of vectors.invalid) {
      const answer = await inject(app, {
        method: 'GET',
        path: pathOf(vector.url),
        headers: PROXIED,
      });
      expect(answer.status).toBe(400);
    }
  });
});

describe('the public URL', () => {
  const [vector] = redirects;
  const call = (headers: Record<string, string>) => ({
    method: 'GET',
    path: pathOf(vector!.url),
    headers: { accept: 'application/json', ...headers },
  });

  it('fails verification without publicUrl or trustProxy: the app sees http, not https', async () => {
    const origin = await listen(build());
    const answer = await overHttp(origin, call(PROXIED));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ reason: 'bad_signature' });
  });

  it("passes with Fastify's trustProxy, which honors X-Forwarded-Proto and -Host", async () => {
    const origin = await listen(build({}, true));
    expect((await overHttp(origin, call(PROXIED))).status).toBe(302);
    const forwardedHost = { 'x-forwarded-host': 'app.example.com', 'x-forwarded-proto': 'https' };
    expect((await overHttp(origin, call(forwardedHost))).status).toBe(302);
  });

  it('trusts only the proxies trustProxy names', async () => {
    const origin = await listen(build({}, false));
    const forwardedHost = { 'x-forwarded-host': 'app.example.com', 'x-forwarded-proto': 'https' };
    expect((await overHttp(origin, call(forwardedHost))).status).toBe(400);
    await app.close();
    const elsewhere = await listen(build({}, '10.0.0.1'));
    expect((await overHttp(elsewhere, call(forwardedHost))).status).toBe(400);
  });

  it('takes publicUrl over forwarded headers', async () => {
    const origin = await listen(build({ publicUrl: 'https://app.example.com' }, true));
    const spoofed = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' };
    expect((await overHttp(origin, call(spoofed))).status).toBe(302);
  });
});

describe('a full round trip', () => {
  it('redirects to login, resumes after it, and returns a callback that verifies', async () => {
    const onLinked = vi.fn<(link: ConnectLink, request: FastifyRequest) => void>();
    // The community's own session: a cookie set by its login page.
    const sessionUser = (request: FastifyRequest) =>
      /(?:^|;\s*)uid=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
    build({ getIdentifier: sessionUser, loginUrl: '/login', onLinked });
    app.post<{ Querystring: { returnTo: string } }>('/login', async (request, reply) =>
      reply.header('set-cookie', `uid=${MEMBER}; Path=/`).redirect(request.query.returnTo, 303),
    );
    const origin = await listen(app);

    const platformCallback = 'https://platform.example/connect/callback?session=s-9';
    const redirect = await createConnectRedirect({
      redirectUrl: new URL('/connect', origin).href,
      svcUserId: 'svc-user-9',
      callback: platformCallback,
      secret,
    });

    const first = await fetch(redirect, { redirect: 'manual' });
    expect(first.status).toBe(302);
    // The flow is bound to this browser: its nonce cookie goes along when it resumes.
    const nonce = first.headers.get('set-cookie')!.split(';')[0]!;
    const login = new URL(first.headers.get('location')!, origin);
    expect(login.pathname).toBe('/login');
    const returnTo = login.searchParams.get('returnTo')!;
    expect(returnTo).toMatch(/^\/connect\?state=/);
    expect(onLinked).not.toHaveBeenCalled();

    const loggedIn = await fetch(login, { method: 'POST', redirect: 'manual' });
    expect(loggedIn.status).toBe(303);
    const cookie = loggedIn.headers.get('set-cookie')!.split(';')[0]!;

    const resumed = await fetch(new URL(loggedIn.headers.get('location')!, origin), {
      headers: { cookie: `${cookie}; ${nonce}` },
      redirect: 'manual',
    });
    expect(resumed.status).toBe(302);
    const callback = resumed.headers.get('location')!;
    const verified = await verifySignedUrl(callback, secret);
    expect(verified.ok).toBe(true);
    expect(callback.startsWith('https://platform.example/connect/callback?session=s-9&')).toBe(
      true,
    );
    expect(new URL(callback).searchParams.get('identifier')).toBe(MEMBER);
    expect(onLinked).toHaveBeenCalledOnce();
    expect(onLinked.mock.calls[0]![0]).toEqual({
      svcUserId: 'svc-user-9',
      identifier: MEMBER,
      callback: platformCallback,
    });
  });
});

describe('errors a member can read', () => {
  const unsigned = '/connect?svcUserId=u-1&callback=https%3A%2F%2Fplatform.example%2Fcb';

  it('shows a browser an HTML page', async () => {
    build();
    const answer = await inject(app, {
      method: 'GET',
      path: unsigned,
      headers: { accept: 'text/html,application/xhtml+xml' },
    });
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.body).toContain('This connect link is not signed.');
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('answers JSON to any other client', async () => {
    build();
    const answer = await inject(app, { method: 'GET', path: unsigned });
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(answer.body)).toMatchObject({ reason: 'missing_signature' });
  });

  it('answers 400 when nobody is logged in and there is no login page', async () => {
    build({ getIdentifier: () => null, publicUrl: 'https://app.example.com' });
    const answer = await inject(app, { method: 'GET', path: pathOf(redirects[0]!.url) });
    expect(JSON.parse(answer.body)).toMatchObject({ reason: 'not_logged_in' });
  });

  it('hides an app error from the member and reports it', async () => {
    const onError = vi.fn();
    build({
      publicUrl: 'https://app.example.com',
      onError,
      getIdentifier: () => {
        throw new Error('session store down');
      },
    });
    const answer = await inject(app, { method: 'GET', path: pathOf(redirects[0]!.url) });
    expect(answer.status).toBe(400);
    expect(answer.body).not.toContain('session store');
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'session store down' }),
    );
  });

  it.each([
    ['path is missing', { path: undefined }, /\[@questkit\/fastify\] connectEndpoint: path/],
    ['publicUrl has a path', { publicUrl: 'https://app.example.com/x' }, /publicUrl/],
    ['secret is empty', { secret: '' }, /\[@questkit\/core\]/],
  ])('throws a TypeError at start-up when %s', async (_name, override, message) => {
    build(override as Partial<ConnectEndpointOptions>);
    const error: unknown = await app.ready().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toMatch(message);
  });
});
