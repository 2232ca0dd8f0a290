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
      headers: {
        accept: 'text/html',
        ...(cookie ? { cookie } : {}),
        ...(init.form
          ? { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' }
          : {}),
        ...init.headers,
      },
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
    expect(community.linkOf('member-1001')).toBeNull();

    const confirmed = await browser.go('/connect', {
      form: { ...Browser.fields(html), decision: 'confirm' },
    });
    expect(confirmed.status).toBe(303);
    const callback = confirmed.headers.get('location')!;
    expect(verifySignedUrl(callback, SECRET).ok).toBe(true);
    const url = new URL(callback);
    expect(url.origin + url.pathname).toBe(`${PLATFORM}/connect/callback`);
    expect(url.searchParams.get('identifier')).toBe('member-1001');

    expect(community.linkOf('member-1001')?.svcUserId).toBe('svc-member-7');
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
    expect(community.linkOf('member-1002')?.svcUserId).not.toBe('svc-attacker');
  });

  it('refuses a tampered or unsigned link with a page, and links nobody', async () => {
    const browser = new Browser();
    await browser.logIn('ben', 'ben-demo-password');
    const tampered = redirectFor('svc-member-9').replace('svc-member-9', 'svc-attacker');
    const reply = await browser.go(tampered);
    expect(reply.status).toBe(400);
    expect(reply.headers.get('content-type')).toMatch(/^text\/html/);
    expect((await browser.go(`/connect?svcUserId=x&callback=${PLATFORM}/cb`)).status).toBe(400);
    expect(community.linkOf('member-1002')?.svcUserId).not.toBe('svc-attacker');
  });

  it('refuses a callback to another origin than the platform', async () => {
    const browser = new Browser();
    await browser.logIn('ada', 'ada-demo-password');
    const elsewhere = createConnectRedirect({
      redirectUrl: server.connectUrl,
      svcUserId: 'svc-member-7',
      callback: 'https://evil.example/steal',
      secret: SECRET,
    });
    expect((await browser.go(elsewhere)).status).toBe(400);
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

  it('logs out', async () => {
    const browser = new Browser();
    await browser.logIn('ada', 'ada-demo-password');
    const out = await browser.go('/logout', { method: 'POST' });
    expect(out.status).toBe(303);
    expect(await (await browser.go('/')).text()).toContain('You are not logged in');
  });
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
