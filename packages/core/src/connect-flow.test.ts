import { createHmac } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { createConnectRedirect } from './connect/redirect.js';
import { verifySignedUrl } from './connect/verify.js';
import { createConnectFlow, publicRequestUrl, renderConnectError } from './connect-flow.js';

const SECRET = 'flow-secret-42';
const CALLBACK = 'https://platform.example/connect/callback?session=s-1';
const redirect = createConnectRedirect({
  redirectUrl: 'https://app.example.com/connect',
  svcUserId: 'svc-1',
  callback: CALLBACK,
  secret: SECRET,
});

type Req = { user?: string };

describe('createConnectFlow', () => {
  it('links a logged-in member and redirects to the signed callback', async () => {
    const onLinked = vi.fn();
    const flow = createConnectFlow<Req>({
      secret: SECRET,
      getIdentifier: (req) => req.user,
      onLinked,
    });
    const action = await flow.handle(redirect, { user: 'member-7' });
    expect(action.kind).toBe('redirect');
    if (action.kind !== 'redirect') return;
    const location = new URL(action.location);
    expect(location.origin + location.pathname).toBe('https://platform.example/connect/callback');
    expect(location.searchParams.get('session')).toBe('s-1');
    expect(location.searchParams.get('identifier')).toBe('member-7');
    // The signature is recomputed here with node:crypto, outside the code under test.
    const signed = action.location.replace(/&signature=[0-9a-f]{64}$/, '');
    expect(location.searchParams.get('signature')).toBe(
      createHmac('sha256', SECRET).update(signed).digest('hex'),
    );
    expect(onLinked).toHaveBeenCalledWith(
      { svcUserId: 'svc-1', identifier: 'member-7', callback: CALLBACK },
      {
        user: 'member-7',
      },
    );
  });

  it('sends a visitor to login with a state token, and resumes after login', async () => {
    const flow = createConnectFlow<Req>({
      secret: SECRET,
      getIdentifier: (req) => req.user,
      loginUrl: '/login?app=1',
    });
    const first = await flow.handle(redirect, {});
    expect(first.kind).toBe('redirect');
    if (first.kind !== 'redirect') return;
    const login = new URL(first.location, 'https://app.example.com');
    expect(login.pathname).toBe('/login');
    expect(login.searchParams.get('app')).toBe('1');
    const returnTo = login.searchParams.get('returnTo') ?? '';
    expect(returnTo).toMatch(/^\/connect\?state=[\w-]+\.[\w-]+\.[\w-]+$/);

    const resumed = await flow.handle(`https://app.example.com${returnTo}`, { user: 'member-9' });
    expect(resumed.kind).toBe('redirect');
    if (resumed.kind !== 'redirect') return;
    expect(new URL(resumed.location).searchParams.get('identifier')).toBe('member-9');
    expect(verifySignedUrl(resumed.location, SECRET).ok).toBe(true);
  });

  it('builds the login URL with a function when given one', async () => {
    const flow = createConnectFlow<Req>({
      secret: SECRET,
      getIdentifier: () => null,
      loginUrl: (returnTo) => `https://auth.example/login#next=${encodeURIComponent(returnTo)}`,
    });
    const action = await flow.handle(redirect, {});
    expect(action).toMatchObject({
      kind: 'redirect',
      location: expect.stringMatching(/^https:\/\/auth\.example\/login#next=%2Fconnect%3Fstate%3D/),
    });
  });

  it.each([
    ['a tampered svcUserId', redirect.replace('svc-1', 'svc-2'), 'bad_signature'],
    ['no signature', redirect.replace(/&signature=.*$/, ''), 'missing_signature'],
    ['a forged state token', 'https://app.example.com/connect?state=abc.def.ghi', 'invalid_state'],
    ['not a URL', 'not a url', 'invalid_url'],
  ])('answers 400 for %s', async (_, url, reason) => {
    const getIdentifier = vi.fn(() => 'member');
    const flow = createConnectFlow<Req>({ secret: SECRET, getIdentifier });
    expect(await flow.handle(url, {})).toMatchObject({ kind: 'error', status: 400, reason });
    expect(getIdentifier).not.toHaveBeenCalled();
  });

  it('answers 400 not_logged_in without a login URL, and app_error when the app throws', async () => {
    const anonymous = createConnectFlow<Req>({ secret: SECRET, getIdentifier: () => undefined });
    expect(await anonymous.handle(redirect, {})).toMatchObject({ reason: 'not_logged_in' });
    const onError = vi.fn();
    const broken = createConnectFlow<Req>({
      secret: SECRET,
      getIdentifier: () => 'm',
      onLinked: () => Promise.reject(new Error('db down')),
      onError,
    });
    const action = await broken.handle(redirect, {});
    expect(action).toMatchObject({
      reason: 'app_error',
      message: expect.not.stringContaining('db down'),
    });
    expect(onError).toHaveBeenCalledOnce();
  });

  it('honors the callback allow-list', async () => {
    const flow = createConnectFlow<Req>({
      secret: SECRET,
      getIdentifier: () => 'm',
      allowedCallbackOrigins: ['https://other.example'],
    });
    expect(await flow.handle(redirect, {})).toMatchObject({ reason: 'callback_not_allowed' });
  });

  it('accepts every secret of a rotation and signs with the first', async () => {
    const flow = createConnectFlow<Req>({
      secret: ['new-secret', SECRET],
      getIdentifier: () => 'm',
    });
    const action = await flow.handle(redirect, {});
    if (action.kind !== 'redirect') throw new Error(`expected a redirect, got ${action.reason}`);
    expect(verifySignedUrl(action.location, 'new-secret').ok).toBe(true);
    expect(verifySignedUrl(action.location, SECRET).ok).toBe(false);
  });

  it('throws at construction for bad options, never echoing the secret', () => {
    expect(() => createConnectFlow({ secret: '', getIdentifier: () => 'm' })).toThrow(/secret/);
    expect(() => createConnectFlow({ secret: SECRET, getIdentifier: 'x' as never })).toThrow(
      /getIdentifier/,
    );
    expect(() =>
      createConnectFlow({
        secret: SECRET,
        getIdentifier: () => 'm',
        publicUrl: 'https://a.example/base',
      }),
    ).toThrow(/publicUrl/);
    expect(() =>
      createConnectFlow({ secret: SECRET, getIdentifier: () => 'm', publicUrl: 'ftp://a.example' }),
    ).toThrow(/publicUrl/);
    expect(() =>
      createConnectFlow({ secret: SECRET, getIdentifier: () => 'm', publicUrl: 'nope' }),
    ).toThrow(expect.objectContaining({ message: expect.not.stringContaining(SECRET) }));
    expect(
      createConnectFlow({
        secret: SECRET,
        getIdentifier: () => 'm',
        publicUrl: 'https://a.example/',
      }).publicOrigin,
    ).toBe('https://a.example');
  });
});

describe('publicRequestUrl and renderConnectError', () => {
  it('joins the public origin with the path and query the app received', () => {
    expect(publicRequestUrl('/connect?a=1&b=%20', 'https://app.example.com')).toBe(
      'https://app.example.com/connect?a=1&b=%20',
    );
    expect(publicRequestUrl('connect', 'https://app.example.com')).toBe(
      'https://app.example.com/connect',
    );
    // Never resolved into another host, and never a throw for odd paths.
    expect(publicRequestUrl('//evil.example/x', 'https://app.example.com')).toBe(
      'https://app.example.com//evil.example/x',
    );
    expect(new URL(publicRequestUrl('//evil.example/x', 'https://app.example.com')).host).toBe(
      'app.example.com',
    );
    expect(publicRequestUrl('//[', 'https://app.example.com')).toBe('https://app.example.com//[');
  });

  it('renders an escaped HTML page for browsers and JSON otherwise', () => {
    const action = {
      kind: 'error',
      status: 400,
      reason: 'bad_signature',
      message: 'Bad <link> & "co"',
    } as const;
    const html = renderConnectError(action, 'text/html,application/xhtml+xml');
    expect(html.contentType).toBe('text/html; charset=utf-8');
    expect(html.body).toContain('Bad &lt;link&gt; &amp; &quot;co&quot;');
    const json = renderConnectError(action, 'application/json');
    expect(JSON.parse(json.body)).toEqual({ message: action.message, reason: 'bad_signature' });
    expect(renderConnectError(action, undefined).contentType).toMatch(/json/);
  });
});
