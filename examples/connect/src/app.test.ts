import { request as httpRequest } from 'node:http';
import { createConnectRedirect, verifySignedUrl } from '@questkit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Community, createCommunity } from './community.js';
import { type RunningServer, startServer } from './server.js';

const API_KEY = 'example-test-key-0123';
const SECRET = 'connect-test-secret-0123';
const PLATFORM = 'http://platform.test';

let community: Community;
let server: RunningServer;
beforeAll(async () => {
  community = createCommunity();
  server = await startServer({
    apiKey: API_KEY,
    connectSecret: SECRET,
    allowedCallbackOrigins: [PLATFORM],
    community,
    loginAttemptsPerMinute: 1000,
    port: 0,
  });
});
afterAll(() => server.close());

/** A browser: keeps cookies, does not follow redirects, reads forms. */
class Browser {
  readonly jar = new Map<string, string>();
  async go(
    path: string,
    init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ) {
    const cookie = [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(new URL(path, server.url), {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      redirect: 'manual',
      // A header given as '' is left out (a request without Origin).
      headers: Object.fromEntries(
        Object.entries({
          accept: 'text/html',
          ...(cookie ? { cookie } : {}),
          ...(init.form
            ? { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' }
            : {}),
          ...init.headers,
        }).filter(([, value]) => value !== ''),
      ),
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
    });
    for (const set of response.headers.getSetCookie()) {
      const [pair, ...attributes] = set.split('; ');
      const index = pair!.indexOf('=');
      const [name, value] = [pair!.slice(0, index), pair!.slice(index + 1)];
      if (value === '' || attributes.some((a) => /^Max-Age=0$/i.test(a))) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return response;
  }
  /** Hidden fields of the page's first form. */
  static fields(html: string): Record<string, string> {
    return Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
        m[1]!,
        m[2]!.replaceAll('&amp;', '&'),
      ]),
    );
  }
  async logIn(username: string, password: string, returnTo = '/') {
    const page = await this.go(`/login?returnTo=${encodeURIComponent(returnTo)}`);
    const { csrf } = Browser.fields(await page.text());
    return this.go('/login', { form: { username, password, returnTo, csrf: csrf! } });
  }
}

function redirectFor(svcUserId: string): string {
  return createConnectRedirect({
    redirectUrl: server.connectUrl,
    svcUserId,
    callback: `${PLATFORM}/connect/callback?session=s-1`,
    secret: SECRET,
  });
}

async function claim(svcUserId: string, identifier: string) {
  const response = await fetch(server.verifyUrl, {
    method: 'POST',
    headers: { 'x-api-key': API_KEY },
    body: JSON.stringify({
      userId: svcUserId,
      communityId: 'c',
      subdomain: 'demo',
      questId: 'any-quest',
      requestId: 'r-1',
      accounts: { 'svc-connect': identifier },
    }),
  });
  return { status: response.status, body: (await response.json()) as { message: string } };
}

describe('the community app (connect example)', () => {
  it('links a member who logs in during the flow, after confirming, and verifies claims', async () => {
    const browser = new Browser();
    // The platform sends the member here; nobody is logged in, so the app asks for a login.
    const first = await browser.go(redirectFor('svc-member-7'));
    expect(first.status).toBe(302);
    const login = new URL(first.headers.get('location')!, server.url);
    expect(login.pathname).toBe('/login');
    const returnTo = login.searchParams.get('returnTo')!;
    expect(returnTo).toMatch(/^\/connect\?state=/);

    const loggedIn = await browser.logIn('ada', 'ada-demo-password', returnTo);
    expect(loggedIn.status).toBe(303);
    expect(loggedIn.headers.get('location')).toBe(returnTo);
    expect(loggedIn.headers.getSetCookie().join()).toMatch(/sid=.*HttpOnly.*SameSite=Lax/i);

    // Back on /connect with the session: the app asks before it links anything.
    const page = await browser.go(returnTo);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(
      'Link your Acme Builders account <strong>ada</strong> to platform member <strong>…er-7</strong>?',
    );
    expect(await community.linkOf('member-1001')).toBeNull();

    const confirmed = await browser.go('/connect', {
      form: { ...Browser.fields(html), decision: 'confirm' },
    });
    expect(confirmed.status).toBe(303);
    const callback = confirmed.headers.get('location')!;
    expect(verifySignedUrl(callback, SECRET).ok).toBe(true);
    const url = new URL(callback);
    expect(url.origin + url.pathname).toBe(`${PLATFORM}/connect/callback`);
    expect(url.searchParams.get('identifier')).toBe('member-1001');

    expect((await community.linkOf('member-1001'))?.svcUserId).toBe('svc-member-7');
    expect(await (await browser.go('/')).text()).toContain(
      'linked to platform member <code>svc-member-7</code>',
    );
    expect(await claim('svc-member-7', 'member-1001')).toEqual({
      status: 200,
      body: { message: 'Your Acme Builders account ada is linked. Quest complete.' },
    });
    const other = await claim('svc-someone-else', 'member-1001');
    expect(other.status).toBe(400);
    expect(other.body.message).toMatch(/linked to another platform member/);
  });

  it('links nothing when a logged-in member only opens a link (forced linking)', async () => {
    const victim = new Browser();
    await victim.logIn('ben', 'ben-demo-password');
    const opened = await victim.go(redirectFor('svc-attacker'));
    expect(opened.status).toBe(200);
    expect((await community.linkOf('member-1002'))?.svcUserId).not.toBe('svc-attacker');
  });

  it('refuses a tampered or unsigned link with a page, and links nobody', async () => {
    const browser = new Browser();
    await browser.logIn('ben', 'ben-demo-password');
    const tampered = redirectFor('svc-member-9').replace('svc-member-9', 'svc-attacker');
    const reply = await browser.go(tampered);
    expect(reply.status).toBe(400);
    expect(reply.headers.get('content-type')).toMatch(/^text\/html/);
    expect((await browser.go(`/connect?svcUserId=x&callback=${PLATFORM}/cb`)).status).toBe(400);
    expect((await community.linkOf('member-1002'))?.svcUserId).not.toBe('svc-attacker');
  });

  it('refuses a callback to another origin than the platform', async () => {
    const browser = new Browser();
    await browser.logIn('ada', 'ada-demo-password');
    const elsewhere = await createConnectRedirect({
      redirectUrl: server.connectUrl,
      svcUserId: 'svc-member-7',
      callback: 'https://evil.example/steal',
      secret: SECRET,
    });
    const refused = await browser.go(elsewhere);
    expect(refused.status).toBe(400);
    // The page names the origin and the variable that would allow it, and links nobody.
    const text = await refused.text();
    expect(text).toContain('returns to https://evil.example, which this app does not accept');
    expect(text).toContain(`add it to PLATFORM_ORIGINS (now ${PLATFORM})`);
    expect((await community.linkOf('member-7'))?.svcUserId).not.toBe('svc-member-7');
  });

  it('refuses a wrong password, and never redirects off-site after login', async () => {
    const browser = new Browser();
    const wrong = await browser.logIn('ada', 'not-the-password');
    expect(wrong.status).toBe(401);
    expect(browser.jar.has('sid')).toBe(false);
    for (const returnTo of [
      '//evil.example/',
      '/%09/evil.example/phish',
      '/x%0d%0aSet-Cookie:%20a=b',
      '/\\evil.example',
    ]) {
      const offsite = await new Browser().logIn('ada', 'ada-demo-password', returnTo);
      expect(offsite.status, returnTo).toBe(303);
      expect(offsite.headers.get('location'), returnTo).toBe('/');
    }
  });

  it('refuses a cross-site login and one without the form token', async () => {
    const crossSite = await new Browser().go('/login', {
      form: { username: 'ada', password: 'ada-demo-password', returnTo: '/' },
      headers: { origin: 'https://evil.example' },
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.getSetCookie().join()).not.toContain('sid=');
    const noToken = await new Browser().go('/login', {
      form: { username: 'ada', password: 'ada-demo-password', returnTo: '/' },
    });
    expect(noToken.status).toBe(403);
    expect(noToken.headers.getSetCookie().join()).not.toContain('sid=');
  });

  it('throttles login attempts per address', async () => {
    const small = await startServer({
      apiKey: API_KEY,
      connectSecret: SECRET,
      loginAttemptsPerMinute: 3,
      port: 0,
    });
    try {
      const attempt = async () => {
        const page = await fetch(`${small.url}/login`);
        const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!;
        const cookie = page.headers.getSetCookie()[0]!.split(';')[0]!;
        return fetch(`${small.url}/login`, {
          method: 'POST',
          redirect: 'manual',
          headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            username: 'ada',
            password: 'guess',
            returnTo: '/',
            csrf,
          }).toString(),
        });
      };
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await attempt()).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await small.close();
    }
  });

  it('keeps answering claims during a flood of logins (hashing off the event loop)', async () => {
    const page = await fetch(`${server.url}/login`);
    const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!;
    const cookie = page.headers.getSetCookie()[0]!.split(';')[0]!;
    let loginsDone = 0;
    const logins = Array.from({ length: 100 }, () =>
      fetch(`${server.url}/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          username: 'ada',
          password: 'wrong',
          returnTo: '/',
          csrf,
        }).toString(),
      }).then(() => {
        loginsDone++;
      }),
    );
    // Claims sent after the flood started are answered while most logins still hash.
    const claims = await Promise.all(
      Array.from({ length: 10 }, () => claim('svc-x', 'member-unknown')),
    );
    const doneWhenClaimsAnswered = loginsDone;
    await Promise.all(logins);
    expect(claims.every((answer) => answer.status === 400)).toBe(true);
    expect(doneWhenClaimsAnswered).toBeLessThan(100);
  }, 60_000);

  it('logs out with the session token, from its own page', async () => {
    const browser = new Browser();
    await browser.logIn('ada', 'ada-demo-password');
    const home = await (await browser.go('/')).text();
    const out = await browser.go('/logout', { form: Browser.fields(home) });
    expect(out.status).toBe(303);
    expect(await (await browser.go('/')).text()).toContain('You are not logged in');
  });

  it('refuses a logout from another site or without the session token (logout CSRF)', async () => {
    const victim = new Browser();
    await victim.logIn('ada', 'ada-demo-password');
    const other = new Browser();
    await other.logIn('ben', 'ben-demo-password');
    const othersToken = Browser.fields(await (await other.go('/')).text()).csrf!;
    const port = Number(new URL(server.url).port);
    const attempts: { headers: Record<string, string>; form: Record<string, string> }[] = [
      // A page on another port of the same host is same-site: the Lax cookie goes along, and
      // Chromium sends its Origin.
      { headers: { origin: `http://127.0.0.1:${port === 65535 ? 1 : port + 1}` }, form: {} },
      { headers: { origin: 'https://evil.example' }, form: {} },
      { headers: { origin: 'null' }, form: {} },
      { headers: { 'sec-fetch-site': 'same-site', origin: '' }, form: {} },
      // Scripts and old browsers without Origin: the token decides.
      { headers: { origin: '' }, form: {} },
      { headers: {}, form: { csrf: othersToken } },
      { headers: {}, form: { csrf: '' } },
    ];
    for (const attempt of attempts) {
      const answer = await victim.go('/logout', attempt);
      expect(answer.status, JSON.stringify(attempt)).toBe(403);
      expect(await (await victim.go('/')).text(), JSON.stringify(attempt)).toContain(
        'Logged in as',
      );
    }
    // A GET never logs out.
    expect((await victim.go('/logout')).status).toBe(404);
    expect(await (await victim.go('/')).text()).toContain('Logged in as');
  });

  it('throttles guesses at one account from many addresses (80 from 8 addresses)', async () => {
    const guarded = await startServer({ apiKey: API_KEY, connectSecret: SECRET, port: 0 });
    const { port } = new URL(guarded.url);
    /** One request from a given loopback address: undici's fetch cannot choose it. */
    const send = (from: string, method: string, path: string, headers = {}, body?: string) =>
      new Promise<{ status: number; text: string; cookie: string }>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port, method, path, localAddress: from, headers, timeout: 30_000 },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk) => {
              text += chunk;
            });
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                text,
                cookie: String(res.headers['set-cookie']?.[0] ?? '').split(';')[0]!,
              }),
            );
          },
        );
        req.on('timeout', () => req.destroy(new Error('no answer in 30 s')));
        req.on('error', reject);
        req.end(body);
      });
    try {
      const addresses = Array.from({ length: 8 }, (_, index) => `127.0.0.${index + 2}`);
      const statuses = await Promise.all(
        addresses.map(async (from) => {
          const page = await send(from, 'GET', '/login');
          const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)![1]!;
          const results: number[] = [];
          for (let guess = 0; guess < 10; guess++) {
            const body = new URLSearchParams({
              username: 'ada',
              password: `guess-${from}-${guess}`,
              returnTo: '/',
              csrf,
            }).toString();
            const answer = await send(
              from,
              'POST',
              '/login',
              {
                cookie: page.cookie,
                'content-type': 'application/x-www-form-urlencoded',
                'content-length': String(Buffer.byteLength(body)),
              },
              body,
            );
            results.push(answer.status);
          }
          return results;
        }),
      );
      const all = statuses.flat();
      // Each address stays under its own limit: only the account's count stops them.
      expect(all).toHaveLength(80);
      expect(all.filter((status) => status === 401)).toHaveLength(10);
      expect(all.filter((status) => status === 429)).toHaveLength(70);
      // The right password is refused too while the account is throttled.
      const page = await send('127.0.0.10', 'GET', '/login');
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)![1]!;
      const body = new URLSearchParams({
        username: 'ADA',
        password: 'ada-demo-password',
        returnTo: '/',
        csrf,
      }).toString();
      const right = await send(
        '127.0.0.10',
        'POST',
        '/login',
        {
          cookie: page.cookie,
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': String(Buffer.byteLength(body)),
        },
        body,
      );
      expect(right.status).toBe(429);
    } finally {
      await guarded.close();
    }
  }, 60_000);

  it('verifies only claims that carry a known, linked account', async () => {
    expect((await claim('svc-x', 'member-unknown')).body.message).toMatch(/do not know/);
    const missing = await fetch(server.verifyUrl, {
      method: 'POST',
      headers: { 'x-api-key': API_KEY },
      body: JSON.stringify({
        userId: 'svc-x',
        communityId: 'c',
        subdomain: 'demo',
        questId: 'q',
        requestId: 'r',
      }),
    });
    expect(missing.status).toBe(400);
    const wrongKey = await fetch(server.verifyUrl, { method: 'POST', body: '{}' });
    expect(wrongKey.status).toBe(400);
    expect(await wrongKey.json()).toEqual({ message: expect.any(String) });
  });
});
