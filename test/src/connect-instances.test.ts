import { createConnectRedirect } from '@questkit/core';
import {
  createCommunity,
  createRedisState,
  DEMO_MEMBERS,
  type RunningServer,
  startServer,
} from '@questkit/example-connect';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from './redis.testkit.js';

// The connect example as two instances behind a load balancer, sharing one real Redis: a login on
// one is a session on the other, a link made through one is verified by the other, and the login
// throttle counts attempts across both.

const API_KEY = 'instances-task-key';
const SECRET = 'instances-connect-secret';
const PLATFORM = 'http://platform.test';

let redis: TestRedis;
const instances: RunningServer[] = [];
const clients: { destroy(): void; flushDb(): Promise<unknown> }[] = [];
// What the verification endpoints report to onError: the Redis-down test expects its failure
// here, checked, instead of a stack trace on stderr in a green run.
const verifyErrors: { error: unknown; reason: string }[] = [];

beforeAll(async () => {
  redis = await startRedis();
  for (let index = 0; index < 2; index++) {
    const client = createClient({ url: redis.url, disableOfflineQueue: true });
    client.on('error', () => {});
    await client.connect();
    clients.push(client);
    const state = createRedisState(client);
    instances.push(
      await startServer({
        apiKey: API_KEY,
        connectSecret: SECRET,
        allowedCallbackOrigins: [PLATFORM],
        state,
        community: createCommunity(DEMO_MEMBERS, Date.now, state),
        onError: (error, info) => verifyErrors.push({ error, reason: info.reason }),
        port: 0,
      }),
    );
  }
}, 30_000);
afterAll(async () => {
  for (const instance of instances) await instance.close();
  for (const client of clients) client.destroy();
  await redis?.stop();
});

/** A browser: one cookie jar for both instances (same host), no redirects followed. */
class Browser {
  readonly jar = new Map<string, string>();
  async go(
    origin: string,
    path: string,
    init: { form?: Record<string, string>; headers?: Record<string, string> } = {},
  ) {
    const cookie = [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(new URL(path, origin), {
      method: init.form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(init.form ? { origin, 'content-type': 'application/x-www-form-urlencoded' } : {}),
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
  static fields(html: string): Record<string, string> {
    return Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
        m[1]!,
        m[2]!.replaceAll('&amp;', '&'),
      ]),
    );
  }
  async logIn(origin: string, username: string, password: string, returnTo = '/') {
    const page = await this.go(origin, `/login?returnTo=${encodeURIComponent(returnTo)}`);
    const { csrf } = Browser.fields(await page.text());
    return this.go(origin, '/login', { form: { username, password, returnTo, csrf: csrf! } });
  }
}

async function claim(origin: string, svcUserId: string, identifier: string) {
  const response = await fetch(`${origin}/verify`, {
    method: 'POST',
    headers: { 'x-api-key': API_KEY },
    body: JSON.stringify({
      userId: svcUserId,
      communityId: 'c',
      subdomain: 'demo',
      questId: 'q',
      requestId: 'r',
      accounts: { 'svc-connect': identifier },
    }),
  });
  return response.status;
}

describe('two instances of the connect example on one Redis', () => {
  it('share sessions: a login on one is a session on the other, a logout on one ends it on both', async () => {
    const [a, b] = instances as [RunningServer, RunningServer];
    const browser = new Browser();
    expect((await browser.logIn(a.url, 'ada', 'ada-demo-password')).status).toBe(303);
    const onB = await (await browser.go(b.url, '/')).text();
    expect(onB).toContain('Logged in as <strong>Ada L.</strong>');
    // Logged out through B, with the token B showed: A no longer knows the session.
    expect((await browser.go(b.url, '/logout', { form: Browser.fields(onB) })).status).toBe(303);
    expect(await (await browser.go(a.url, '/')).text()).toContain('You are not logged in');
  });

  it('share links: the flow hops between instances, and both verify the link', async () => {
    const [a, b] = instances as [RunningServer, RunningServer];
    const browser = new Browser();
    const redirect = await createConnectRedirect({
      redirectUrl: `${a.url}/connect`,
      svcUserId: 'svc-member-42',
      callback: `${PLATFORM}/connect/callback`,
      secret: SECRET,
    });
    const first = await browser.go(a.url, redirect);
    expect(first.status).toBe(302);
    const returnTo = new URL(first.headers.get('location')!, a.url).searchParams.get('returnTo')!;
    expect((await browser.logIn(b.url, 'ben', 'ben-demo-password', returnTo)).status).toBe(303);
    const page = await (await browser.go(a.url, returnTo)).text();
    expect(page).toContain('Link your Acme Builders account <strong>ben</strong>');
    const confirmed = await browser.go(b.url, '/connect', {
      form: { ...Browser.fields(page), decision: 'confirm' },
    });
    expect(confirmed.status).toBe(303);
    expect(await claim(a.url, 'svc-member-42', 'member-1002')).toBe(200);
    expect(await claim(b.url, 'svc-member-42', 'member-1002')).toBe(200);
    expect(await claim(b.url, 'svc-someone-else', 'member-1002')).toBe(400);
  });

  it('count login attempts across both instances', async () => {
    const [a, b] = instances as [RunningServer, RunningServer];
    // Earlier tests logged in from this address too: start the minute afresh.
    await clients[0]!.flushDb();
    const statuses: number[] = [];
    // Guesses at one account, alternating between the instances: 10 a minute in all, per
    // account and per address.
    for (let guess = 0; guess < 14; guess++) {
      const origin = guess % 2 === 0 ? a.url : b.url;
      const browser = new Browser();
      statuses.push((await browser.logIn(origin, 'ADA', `guess-${guess}`)).status);
    }
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429, 429, 429]);
    expect((await new Browser().logIn(a.url, 'ben', 'ben-demo-password')).status).toBe(429);
  }, 60_000);

  it('fail closed while Redis is down: no session trusted, no login unthrottled, claims 400', async () => {
    const [a] = instances as [RunningServer, RunningServer];
    await redis.stop();
    const browser = new Browser();
    browser.jar.set('sid', 'some-session-id');
    // A clear page (503, retry later) rather than an error of the framework.
    const home = await browser.go(a.url, '/');
    expect(home.status).toBe(503);
    expect(await home.text()).toContain('try again');
    const login = await new Browser().logIn(a.url, 'ada', 'ada-demo-password');
    expect(login.status).toBe(503);
    expect(login.headers.getSetCookie().join()).not.toContain('sid=');
    const claimed = await fetch(`${a.url}/verify`, {
      method: 'POST',
      headers: { 'x-api-key': API_KEY },
      body: JSON.stringify({
        userId: 'svc-member-42',
        communityId: 'c',
        subdomain: 'demo',
        questId: 'q',
        requestId: 'r',
        accounts: { 'svc-connect': 'member-1002' },
      }),
    });
    expect(claimed.status).toBe(400);
    expect(await claimed.json()).toEqual({ message: expect.any(String) });
    expect(verifyErrors.map(({ error, reason }) => [reason, (error as Error).name])).toEqual([
      ['handler_error', 'StateUnavailableError'],
    ]);
  });
});
