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
    port: 0,
  });
});
afterAll(() => server.close());

/** A GET that does not follow redirects, as the test walks them one by one. */
function get(path: string, cookie?: string) {
  return fetch(new URL(path, server.url), {
    redirect: 'manual',
    headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) },
  });
}

async function logIn(username: string, password: string, returnTo = '/') {
  return fetch(`${server.url}/login`, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams({ username, password, returnTo }),
  });
}

function sessionCookie(response: Response): string {
  const header = response.headers.get('set-cookie') ?? '';
  expect(header).toMatch(/HttpOnly/i);
  expect(header).toMatch(/SameSite=Lax/i);
  return header.split(';', 1)[0]!;
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
  it('links a member who logs in during the flow, shows the link, and verifies claims', async () => {
    // The platform sends the member here; nobody is logged in, so the app asks for a login.
    const first = await get(redirectFor('svc-member-7'));
    expect(first.status).toBe(302);
    const login = new URL(first.headers.get('location')!, server.url);
    expect(login.pathname).toBe('/login');
    const returnTo = login.searchParams.get('returnTo')!;
    expect(returnTo).toMatch(/^\/connect\?state=/);

    const form = await get(login.pathname + login.search);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain(`value="${returnTo.replaceAll('&', '&amp;')}"`);

    const loggedIn = await logIn('ada', 'ada-demo-password', returnTo);
    expect(loggedIn.status).toBe(303);
    expect(loggedIn.headers.get('location')).toBe(returnTo);
    const cookie = sessionCookie(loggedIn);

    // Back on /connect with the session: the app signs the callback for the platform.
    const back = await get(returnTo, cookie);
    expect(back.status).toBe(302);
    const callback = back.headers.get('location')!;
    expect(verifySignedUrl(callback, SECRET).ok).toBe(true);
    const url = new URL(callback);
    expect(url.origin + url.pathname).toBe(`${PLATFORM}/connect/callback`);
    expect(url.searchParams.get('session')).toBe('s-1');
    expect(url.searchParams.get('identifier')).toBe('member-1001');

    expect(community.linkOf('member-1001')?.svcUserId).toBe('svc-member-7');
    const home = await (await get('/', cookie)).text();
    expect(home).toContain('linked to platform member <code>svc-member-7</code>');

    expect(await claim('svc-member-7', 'member-1001')).toEqual({
      status: 200,
      body: { message: 'Your Acme Builders account ada is linked. Quest complete.' },
    });
    const other = await claim('svc-someone-else', 'member-1001');
    expect(other.status).toBe(400);
    expect(other.body.message).toMatch(/linked to another platform member/);
  });

  it('signs the callback at once for a member already logged in', async () => {
    const cookie = sessionCookie(await logIn('ben', 'ben-demo-password'));
    const reply = await get(redirectFor('svc-member-8'), cookie);
    expect(reply.status).toBe(302);
    const callback = new URL(reply.headers.get('location')!);
    expect(callback.searchParams.get('identifier')).toBe('member-1002');
    expect(community.linkOf('member-1002')?.svcUserId).toBe('svc-member-8');
  });

  it('refuses a tampered or unsigned link with a page, and links nobody', async () => {
    const cookie = sessionCookie(await logIn('ben', 'ben-demo-password'));
    const tampered = redirectFor('svc-member-9').replace('svc-member-9', 'svc-attacker');
    const reply = await get(tampered, cookie);
    expect(reply.status).toBe(400);
    expect(reply.headers.get('content-type')).toMatch(/^text\/html/);
    expect((await get(`/connect?svcUserId=x&callback=${PLATFORM}/cb`, cookie)).status).toBe(400);
    expect(community.linkOf('member-1002')?.svcUserId).not.toBe('svc-attacker');
  });

  it('refuses a callback to another origin than the platform', async () => {
    const cookie = sessionCookie(await logIn('ada', 'ada-demo-password'));
    const elsewhere = createConnectRedirect({
      redirectUrl: server.connectUrl,
      svcUserId: 'svc-member-7',
      callback: 'https://evil.example/steal',
      secret: SECRET,
    });
    expect((await get(elsewhere, cookie)).status).toBe(400);
  });

  it('refuses a wrong password, and never redirects off-site after login', async () => {
    const wrong = await logIn('ada', 'not-the-password');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    const offsite = await logIn('ada', 'ada-demo-password', '//evil.example/');
    expect(offsite.headers.get('location')).toBe('/');
  });

  it('logs out', async () => {
    const cookie = sessionCookie(await logIn('ada', 'ada-demo-password'));
    const out = await fetch(`${server.url}/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie },
    });
    expect(out.status).toBe(303);
    expect(await (await get('/', cookie)).text()).toContain('You are not logged in');
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
