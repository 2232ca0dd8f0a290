import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CODE_TTL_MS, redeemCode, requestCode } from '../src/login.js';
import { sessionMember } from '../src/session.js';
import { TEST_ENV } from './env.js';
import { startApp } from './start.js';

// The sign-in of src/login.ts over HTTP: the code goes to the console only and works once, and
// the member goes back only to a path of this app.

let app: Awaited<ReturnType<typeof startApp>>;
beforeAll(async () => {
  app = await startApp(TEST_ENV);
});
afterAll(async () => {
  await app?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const post = (fields: Record<string, string>) =>
  fetch(`${app.origin}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });

/** Asks for a code for `member`: the code the console showed, or '' when it showed none. */
async function askCode(member: string): Promise<string> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  const page = await post({ member, returnTo: '/' });
  expect(page.status).toBe(200);
  const lines = log.mock.calls.map((args) => String(args[0]));
  log.mockRestore();
  const printed = lines.find((line) => line.includes(`sign-in code for ${member}:`));
  return /: ([0-9a-f]{32}) /.exec(printed ?? '')?.[1] ?? '';
}

describe('the sign-in', () => {
  it('asks for the member id and keeps returnTo in the form', async () => {
    const page = await fetch(`${app.origin}/login?returnTo=${encodeURIComponent('/connect?s=1')}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<form method="post" action="/login">');
    expect(html).toContain('name="returnTo" value="/connect?s=1"');
  });

  it('signs a member in with the code from the console, once, and goes back to returnTo', async () => {
    const code = await askCode('member-1');
    expect(code).toMatch(/^[0-9a-f]{32}$/);
    const fields = { member: 'member-1', code, returnTo: '/connect?state=abc' };
    const signedIn = await post(fields);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/connect?state=abc');
    const cookie = signedIn.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly; SameSite=Lax/);
    expect(await sessionMember(cookie.split(';')[0], TEST_ENV.SESSION_SECRET!)).toBe('member-1');
    const again = await post(fields);
    expect(again.status).toBe(401);
    expect(again.headers.get('set-cookie')).toBeNull();
  });

  it('signs nobody in by typing an id: a guess fails and uses the code up', async () => {
    const unasked = await post({ member: 'member-1', code: '0'.repeat(32), returnTo: '/' });
    expect(unasked.status).toBe(401);
    const code = await askCode('member-1');
    const guess = await post({
      member: 'member-1',
      code: code.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
    });
    expect(guess.status).toBe(401);
    expect(guess.headers.get('set-cookie')).toBeNull();
    const late = await post({ member: 'member-1', code });
    expect(late.status).toBe(401);
  });

  it('sends no code to a stranger, with the same page a member gets', async () => {
    expect(await askCode('someone-else')).toBe('');
    const page = await post({ member: 'someone-else', returnTo: '/' });
    expect(await page.text()).toContain('If someone-else is a member, a sign-in code was sent');
  });

  it('refuses a code after its 10 minutes', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const start = Date.now();
    await requestCode('member-1', start);
    const code = /: ([0-9a-f]{32}) /.exec(String(log.mock.calls.at(-1)?.[0]))?.[1] ?? '';
    expect(code).not.toBe('');
    expect(await redeemCode('member-1', code, start + CODE_TTL_MS)).toBe(false);
  });

  it.each([
    '//evil.example',
    'https://evil.example/',
    '/\\evil.example',
    '/\\/evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    ' //evil.example',
    'javascript:alert(1)',
    'http:evil.example',
    '%2F%2Fevil.example',
    '/%2F%2Fevil.example',
    '/%5Cevil.example',
    '/x\r\nSet-Cookie: session=forged',
  ])('never sends the member to another site: returnTo %j', async (returnTo) => {
    const code = await askCode('member-1');
    const signedIn = await post({ member: 'member-1', code, returnTo });
    expect(signedIn.status).toBe(303);
    const location = signedIn.headers.get('location') ?? '';
    expect(location).toMatch(/^\/(?![/\\])/);
    expect(new URL(location, app.origin).origin).toBe(app.origin);
    expect(signedIn.headers.get('set-cookie')).not.toContain('forged');
  });

  it('escapes returnTo on the page', async () => {
    const page = await fetch(
      `${app.origin}/login?returnTo=${encodeURIComponent('/"><script>alert(1)</script>')}`,
    );
    expect(await page.text()).not.toContain('<script>');
  });
});
