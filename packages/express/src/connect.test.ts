import { readFileSync } from 'node:fs';
import { createConnectRedirect, verifySignedUrl } from '@questkit/core';
import type { Request } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectEndpoint } from './connect.js';
import { EXPRESS_VERSIONS, type ExpressApp, jsonOf, listen, send } from './http.testkit.js';

interface Vectors {
  secret: string;
  valid: { kind: string; url: string; svcUserId?: string; callback?: string }[];
  invalid: { why: string; url: string }[];
}

// The repo is checked out with `shared/` beside it.
const vectors = JSON.parse(
  readFileSync(new URL('../../../vectors/connect.json', import.meta.url), 'utf8'),
) as Vectors;
const SECRET = vectors.secret;
const redirects = vectors.valid.filter((vector) => vector.kind !== 'callback');
const CALLBACK_USER_42 = vectors.valid.find(
  (vector) =>
    vector.kind === 'callback' &&
    vector.url.startsWith(
      'https://platform.example/connect/callback?session=s-1&identifier=user-42',
    ),
)!;
// What a TLS-terminating proxy in front of the app adds.
const PROXY_HEADERS = { host: 'app.example.com', 'x-forwarded-proto': 'https' };

function pathOf(url: string): string {
  const { pathname, search } = new URL(url);
  return pathname + search;
}

describe.each(EXPRESS_VERSIONS)('connectEndpoint on $name', ({ express }) => {
  describe('the shared vectors, behind a TLS proxy with publicUrl', () => {
    const onLinked = vi.fn();
    let server: Awaited<ReturnType<typeof listen>>;
    beforeAll(async () => {
      const app = express();
      app.get(
        '/connect',
        connectEndpoint({
          confirm: false,
          secret: SECRET,
          publicUrl: 'https://app.example.com',
          getIdentifier: () => 'user-42',
          onLinked,
        }),
      );
      server = await listen(app);
    });
    afterAll(() => server.close());

    it.each(redirects)('accepts the valid $kind vector', async (vector) => {
      onLinked.mockClear();
      const reply = await send(server.origin + pathOf(vector.url), {
        method: 'GET',
        headers: PROXY_HEADERS,
      });
      expect(reply.status).toBe(302);
      const location = reply.headers.location!;
      const verified = await verifySignedUrl(location, SECRET);
      expect(verified.ok).toBe(true);
      expect(new URL(location).searchParams.get('identifier')).toBe('user-42');
      const { callback } = onLinked.mock.calls[0]?.[0] as { callback: string };
      expect(location.startsWith(callback.split('?')[0]!)).toBe(true);
      expect(onLinked).toHaveBeenCalledWith(
        expect.objectContaining({ identifier: 'user-42' }),
        expect.objectContaining({ originalUrl: pathOf(vector.url) }),
      );
    });

    it('redirects to exactly the signed callback of the vectors', async () => {
      const vector = redirects.find(
        (candidate) =>
          candidate.callback === 'https://platform.example/connect/callback?session=s-1',
      )!;
      const reply = await send(server.origin + pathOf(vector.url), {
        method: 'GET',
        headers: PROXY_HEADERS,
      });
      expect(reply.headers.location).toBe(CALLBACK_USER_42.url);
    });

    it.each(vectors.invalid)('refuses the vector with $why', async (vector) => {
      const reply = await send(server.origin + pathOf(vector.url), {
        method: 'GET',
        headers: PROXY_HEADERS,
      });
      expect(reply.status).toBe(400);
      expect(reply.headers.location).toBeUndefined();
      expect(jsonOf(reply)).toEqual({ message: expect.any(String), reason: expect.any(String) });
    });
  });

  describe('the public URL', () => {
    const vector = redirects[0]!;

    async function status(app: ExpressApp, headers: Record<string, string>): Promise<number> {
      const server = await listen(app);
      try {
        return (await send(server.origin + pathOf(vector.url), { method: 'GET', headers })).status;
      } finally {
        await server.close();
      }
    }

    function appWith(trustProxy: boolean): ExpressApp {
      const app = express();
      if (trustProxy) app.set('trust proxy', 'loopback');
      app.get(
        '/connect',
        connectEndpoint({ confirm: false, secret: SECRET, getIdentifier: () => 'user-42' }),
      );
      return app;
    }

    it('is not the signed one without publicUrl or trust proxy', async () => {
      expect(await status(appWith(false), PROXY_HEADERS)).toBe(400);
    });

    it('comes from X-Forwarded-Proto and Host with trust proxy', async () => {
      expect(await status(appWith(true), PROXY_HEADERS)).toBe(302);
    });

    it('comes from X-Forwarded-Host only with trust proxy', async () => {
      const headers = { 'x-forwarded-host': 'app.example.com', 'x-forwarded-proto': 'https' };
      expect(await status(appWith(true), headers)).toBe(302);
      expect(await status(appWith(false), headers)).toBe(400);
    });

    it('keeps the port of the Host header (a local app without a proxy)', async () => {
      const app = express();
      app.get(
        '/connect',
        connectEndpoint({ confirm: false, secret: SECRET, getIdentifier: () => 'user-42' }),
      );
      const server = await listen(app);
      try {
        const redirect = await createConnectRedirect({
          redirectUrl: `${server.origin}/connect`,
          svcUserId: 'svc-1',
          callback: 'https://platform.example/cb',
          secret: SECRET,
        });
        const reply = await send(redirect, { method: 'GET' });
        expect(reply.status).toBe(302);
      } finally {
        await server.close();
      }
    });

    it('keeps the mount path of a router (req.originalUrl)', async () => {
      const app = express();
      const router = express.Router();
      router.get(
        '/connect',
        connectEndpoint({
          confirm: false,
          secret: SECRET,
          publicUrl: 'https://app.example.com',
          getIdentifier: () => 'user-42',
        }),
      );
      app.use('/community', router);
      const redirect = await createConnectRedirect({
        redirectUrl: 'https://app.example.com/community/connect',
        svcUserId: 'svc-1',
        callback: 'https://platform.example/cb',
        secret: SECRET,
      });
      const reply = await request(app).get(pathOf(redirect));
      expect(reply.status).toBe(302);
      expect((await verifySignedUrl(reply.headers.location!, SECRET)).ok).toBe(true);
    });
  });

  it('completes a round trip through the login page', async () => {
    const onLinked = vi.fn();
    const app = express();
    app.set('trust proxy', 'loopback');
    // A toy session: the cookie names the user.
    const userOf = (req: Request) => /(?:^|; )user=([^;]+)/.exec(req.get('cookie') ?? '')?.[1];
    app.get(
      '/connect',
      connectEndpoint({
        confirm: false,
        secret: SECRET,
        getIdentifier: userOf,
        loginUrl: '/login',
        onLinked,
      }),
    );
    app.post('/login', (req, res) => {
      res.set('Set-Cookie', 'user=member-7; Path=/').redirect(303, String(req.query.returnTo));
    });
    const server = await listen(app);
    try {
      const redirect = await createConnectRedirect({
        redirectUrl: 'https://app.example.com/connect',
        svcUserId: 'svc-9',
        callback: 'https://platform.example/connect/callback?session=abc',
        secret: SECRET,
      });
      const first = await send(server.origin + pathOf(redirect), {
        method: 'GET',
        headers: PROXY_HEADERS,
      });
      expect(first.status).toBe(302);
      // The flow is bound to this browser: its nonce cookie goes along when it resumes.
      const nonce = first.headers['set-cookie']![0]!.split(';')[0]!;
      const login = new URL(first.headers.location!, 'https://app.example.com');
      expect(login.pathname).toBe('/login');
      expect(onLinked).not.toHaveBeenCalled();

      const loggedIn = await send(server.origin + login.pathname + login.search, {
        headers: PROXY_HEADERS,
      });
      expect(loggedIn.status).toBe(303);
      const cookie = loggedIn.headers['set-cookie']![0]!.split(';')[0]!;
      const resume = loggedIn.headers.location!;
      expect(resume).toMatch(/^\/connect\?state=/);

      const back = await send(server.origin + resume, {
        method: 'GET',
        headers: { ...PROXY_HEADERS, cookie: `${cookie}; ${nonce}` },
      });
      expect(back.status).toBe(302);
      const callback = back.headers.location!;
      const verified = await verifySignedUrl(callback, SECRET);
      expect(verified.ok).toBe(true);
      const url = new URL(callback);
      expect(url.origin + url.pathname).toBe('https://platform.example/connect/callback');
      expect(url.searchParams.get('session')).toBe('abc');
      expect(url.searchParams.get('identifier')).toBe('member-7');
      expect(onLinked).toHaveBeenCalledOnce();
      expect(onLinked.mock.calls[0]?.[0]).toEqual({
        svcUserId: 'svc-9',
        identifier: 'member-7',
        callback: 'https://platform.example/connect/callback?session=abc',
      });
    } finally {
      await server.close();
    }
  });

  describe('refusals', () => {
    const invalid = vectors.invalid[0]!;

    it('shows a browser a readable HTML page, and never caches it', async () => {
      const app = express();
      app.get(
        '/connect',
        connectEndpoint({ confirm: false, secret: SECRET, getIdentifier: () => 'u' }),
      );
      const reply = await request(app).get(pathOf(invalid.url)).set('Accept', 'text/html');
      expect(reply.status).toBe(400);
      expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(reply.headers['cache-control']).toBe('no-store');
      expect(reply.text).toContain('<h1>Account not linked</h1>');
    });

    it('answers an API client with JSON', async () => {
      const app = express();
      app.get(
        '/connect',
        connectEndpoint({ confirm: false, secret: SECRET, getIdentifier: () => 'u' }),
      );
      const reply = await request(app).get('/connect').set('Accept', 'application/json');
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({ message: expect.any(String), reason: 'missing_signature' });
    });

    it.each([
      '//[/connect',
      '//evil.example/connect?svcUserId=x&callback=https%3A%2F%2Fe.example',
    ])('answers 400, not 500, to the odd path %s', async (path) => {
      const app = express();
      app.use(
        connectEndpoint({
          confirm: false,
          secret: SECRET,
          publicUrl: 'https://app.example.com',
          getIdentifier: () => 'u',
        }),
      );
      const server = await listen(app);
      try {
        const reply = await send(server.origin + path, {
          method: 'GET',
          headers: { accept: 'application/json' },
        });
        expect(reply.status).toBe(400);
        expect(jsonOf(reply)).toEqual({ message: expect.any(String), reason: expect.any(String) });
      } finally {
        await server.close();
      }
    });

    it('answers 400 when the app fails, and tells only onError', async () => {
      const onError = vi.fn();
      const app = express();
      app.set('trust proxy', 'loopback');
      app.get(
        '/connect',
        connectEndpoint({
          confirm: false,
          secret: SECRET,
          getIdentifier: () => {
            throw new Error('db password=hunter2');
          },
          onError,
        }),
      );
      const reply = await request(app)
        .get(pathOf(redirects[0]!.url))
        .set(PROXY_HEADERS)
        .set('Accept', 'application/json');
      expect(reply.status).toBe(400);
      expect(reply.body.reason).toBe('app_error');
      expect(reply.text).not.toContain('hunter2');
      expect(onError).toHaveBeenCalledOnce();
    });
  });
});

describe('connectEndpoint: start-up errors', () => {
  it('throws a TypeError for a bad publicUrl or a missing getIdentifier', () => {
    expect(() =>
      connectEndpoint({
        confirm: false,
        secret: SECRET,
        getIdentifier: () => 'u',
        publicUrl: 'app.example.com',
      }),
    ).toThrow(TypeError);
    expect(() => connectEndpoint({ confirm: false, secret: SECRET } as never)).toThrow(TypeError);
  });
});
