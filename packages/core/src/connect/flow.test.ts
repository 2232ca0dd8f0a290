import { createHmac } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { DoorAnswer, DoorBody } from '../adapter/door.js';
import { type ConnectFlowOptions, createConnectFlow } from './flow.js';
import { publicRequestUrl } from './public-url.js';
import { createConnectRedirect } from './redirect.js';

const SECRET = 'flow-secret-42';
const APP = 'https://app.example.com';
const CALLBACK = 'https://platform.example/connect/callback?session=s-1';
const signedLink = (svcUserId = 'svc-0004') =>
  createConnectRedirect({
    redirectUrl: `${APP}/connect`,
    svcUserId,
    callback: CALLBACK,
    secret: SECRET,
  });

type Req = { user?: string };

/** A browser: keeps the cookies the flow sets, sends them back, and reads pages. */
class Browser {
  cookies = new Map<string, string>();
  constructor(readonly flow: ReturnType<typeof createConnectFlow<Req>>) {}

  async request(method: string, url: string, user?: string, body?: string): Promise<DoorAnswer> {
    const headers: Record<string, string> = {
      accept: 'text/html',
      cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    };
    const door: DoorBody =
      body === undefined ? { kind: 'bytes', value: '' } : { kind: 'bytes', value: body };
    const answer = await this.flow.handle(
      { method, url: new URL(url, APP).href, header: (name) => headers[name], body: door },
      { user },
    );
    for (const cookie of answer.cookies) {
      const [pair, ...attributes] = cookie.split('; ');
      const [name, value] = pair!.split('=') as [string, string];
      if (attributes.includes('Max-Age=0')) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return answer;
  }

  /** The confirmation form's fields, as the page carries them. */
  static form(answer: DoorAnswer): Record<string, string> {
    const fields: Record<string, string> = {};
    for (const [, name, value] of answer.body.matchAll(
      /<input type="hidden" name="([^"]+)" value="([^"]*)">/g,
    )) {
      fields[name!] = value!.replace(/&amp;/g, '&');
    }
    return fields;
  }

  post(url: string, user: string, fields: Record<string, string>): Promise<DoorAnswer> {
    return this.request('POST', url, user, new URLSearchParams(fields).toString());
  }
}

function flowWith(options: Partial<ConnectFlowOptions<Req>> = {}) {
  const onLinked = vi.fn();
  const flow = createConnectFlow<Req>({
    secret: SECRET,
    getIdentifier: (req) => req.user,
    loginUrl: '/login',
    appName: 'Acme Builders',
    onLinked,
    ...options,
  });
  return { flow, onLinked };
}

describe('createConnectFlow: confirmation', () => {
  it('shows a page naming both accounts on the GET, and links nothing', async () => {
    const { flow, onLinked } = flowWith({
      accountLabel: (id) => (id === 'member-1002' ? 'ben' : id),
    });
    const browser = new Browser(flow);
    const page = await browser.request('GET', await signedLink(), 'member-1002');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain(
      'Link your Acme Builders account <strong>ben</strong> to platform member <strong>…0004</strong>?',
    );
    expect(page.body).toContain('https://platform.example');
    expect(page.body).not.toContain('<script');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(onLinked).not.toHaveBeenCalled();
    expect(browser.cookies.has('qk_connect_nonce')).toBe(true);
  });

  it('links on Confirm, redirects to the signed callback, and the token cannot be used again', async () => {
    const { flow, onLinked } = flowWith();
    const browser = new Browser(flow);
    const page = await browser.request('GET', await signedLink(), 'member-7');
    const fields = Browser.form(page);
    const confirmed = await browser.post('/connect', 'member-7', {
      ...fields,
      decision: 'confirm',
    });
    expect(confirmed.status).toBe(303);
    const location = new URL(confirmed.headers.location!);
    expect(location.searchParams.get('identifier')).toBe('member-7');
    // The signature is recomputed here with node:crypto, outside the code under test.
    const signed = confirmed.headers.location!.replace(/&signature=[0-9a-f]{64}$/, '');
    expect(location.searchParams.get('signature')).toBe(
      createHmac('sha256', SECRET).update(signed).digest('hex'),
    );
    expect(onLinked).toHaveBeenCalledTimes(1);
    expect(onLinked).toHaveBeenCalledWith(
      { svcUserId: 'svc-0004', identifier: 'member-7', callback: CALLBACK },
      { user: 'member-7' },
    );
    expect(browser.cookies.has('qk_connect_nonce')).toBe(false);
    const again = await browser.post('/connect', 'member-7', { ...fields, decision: 'confirm' });
    expect(again.status).toBe(400);
    expect(again.body).toContain('already used, or opened in another browser');
    expect(onLinked).toHaveBeenCalledTimes(1);
  });

  it('links nothing on Cancel and says so on a plain page', async () => {
    const { flow, onLinked } = flowWith();
    const browser = new Browser(flow);
    const fields = Browser.form(await browser.request('GET', await signedLink(), 'member-7'));
    const cancelled = await browser.post('/connect', 'member-7', { ...fields, decision: 'cancel' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toContain('Your account was not linked');
    expect(cancelled.headers.location).toBeUndefined();
    expect(onLinked).not.toHaveBeenCalled();
    expect(browser.cookies.has('qk_connect_nonce')).toBe(false);
  });

  it('refuses a confirmation posted from another browser, for another member, or forged', async () => {
    const { flow, onLinked } = flowWith();
    const victim = new Browser(flow);
    const fields = Browser.form(await victim.request('GET', await signedLink(), 'member-7'));
    const attacker = new Browser(flow);
    expect(
      (await attacker.post('/connect', 'member-7', { ...fields, decision: 'confirm' })).status,
    ).toBe(400);
    expect(
      (await attacker.post('/connect', 'member-9', { ...fields, decision: 'confirm' })).status,
    ).toBe(400);
    // The same browser, but another member logged in since the page was shown.
    expect(
      (await victim.post('/connect', 'member-9', { ...fields, decision: 'confirm' })).body,
    ).toContain('confirmation is not valid');
    const forged = { ...fields, confirmation: '0'.repeat(64), decision: 'confirm' };
    expect((await victim.post('/connect', 'member-7', forged)).status).toBe(400);
    expect(
      (await victim.post('/connect', 'member-7', { ...fields, decision: 'maybe' })).status,
    ).toBe(400);
    expect(onLinked).not.toHaveBeenCalled();
  });

  it('carries the flow across the login, in the same browser only', async () => {
    const { flow, onLinked } = flowWith();
    const browser = new Browser(flow);
    const toLogin = await browser.request('GET', await signedLink());
    expect(toLogin.status).toBe(302);
    const login = new URL(toLogin.headers.location!, APP);
    expect(login.pathname).toBe('/login');
    const returnTo = login.searchParams.get('returnTo')!;
    expect(returnTo).toMatch(/^\/connect\?state=/);
    expect(returnTo).not.toContain('svc-0004');
    const page = await browser.request('GET', returnTo, 'member-7');
    expect(page.status).toBe(200);
    expect(page.body).toContain('Link your Acme Builders account');
    const elsewhere = await new Browser(flow).request('GET', returnTo, 'member-7');
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toContain('opened in another browser');
    const confirmed = await browser.post('/connect', 'member-7', {
      ...Browser.form(page),
      decision: 'confirm',
    });
    expect(confirmed.status).toBe(303);
    expect(onLinked).toHaveBeenCalledTimes(1);
  });

  it('renders the app own page when given one, with the fields to post', async () => {
    const render = vi.fn(() => '<p>custom</p>');
    const { flow } = flowWith({ renderConfirmPage: render });
    const answer = await new Browser(flow).request('GET', await signedLink(), 'member-7');
    expect(answer.body).toBe('<p>custom</p>');
    expect(render).toHaveBeenCalledWith(
      expect.objectContaining({
        appName: 'Acme Builders',
        account: 'member-7',
        platformMember: '…0004',
        action: '/connect',
        fields: {
          state: expect.any(String),
          confirmation: expect.stringMatching(/^[0-9a-f]{64}$/),
        },
      }),
    );
  });

  it('escapes what it shows', async () => {
    const { flow } = flowWith({ appName: '<b>Acme</b>' });
    const answer = await new Browser(flow).request(
      'GET',
      await signedLink(),
      '"><script>x</script>',
    );
    expect(answer.body).not.toContain('<script>x');
    expect(answer.body).toContain('&lt;b&gt;Acme&lt;/b&gt;');
  });

  it('links on the GET with confirm: false (the documented opt-out)', async () => {
    const { flow, onLinked } = flowWith({ confirm: false });
    const answer = await new Browser(flow).request('GET', await signedLink(), 'member-7');
    expect(answer.status).toBe(302);
    expect(new URL(answer.headers.location!).searchParams.get('identifier')).toBe('member-7');
    expect(onLinked).toHaveBeenCalledTimes(1);
  });
});

describe('createConnectFlow: refusals', () => {
  it('answers bad links, a forged state and other methods with 400, as JSON for API clients', async () => {
    const { flow } = flowWith();
    const ask = (method: string, url: string) =>
      flow.handle(
        { method, url, header: () => undefined, body: { kind: 'bytes', value: '' } },
        { user: 'm' },
      );
    const tampered = await ask('GET', (await signedLink()).replace('svc-0004', 'svc-0005'));
    expect(tampered.status).toBe(400);
    expect(JSON.parse(tampered.body)).toEqual({
      message: expect.stringContaining('invalid signature'),
      reason: 'bad_signature',
    });
    expect(JSON.parse((await ask('GET', `${APP}/connect?state=forged`)).body).reason).toBe(
      'invalid_state',
    );
    expect(JSON.parse((await ask('GET', 'not a url')).body).reason).toBe('invalid_url');
    expect(JSON.parse((await ask('PUT', await signedLink())).body).reason).toBe(
      'method_not_allowed',
    );
    expect(JSON.parse((await ask('POST', `${APP}/connect`)).body).reason).toBe('bad_form');
  });

  it('answers not_logged_in without a login URL, and app_error when the app throws', async () => {
    const { flow } = flowWith({ loginUrl: undefined });
    expect((await new Browser(flow).request('GET', await signedLink())).body).toContain(
      'Log in first',
    );
    const onError = vi.fn();
    const broken = flowWith({
      getIdentifier: () => Promise.reject(new Error('db down')),
      onError,
    }).flow;
    expect((await new Browser(broken).request('GET', await signedLink())).body).toContain(
      'could not link your account',
    );
    expect(onError).toHaveBeenCalledOnce();
  });

  it('honors the callback allow-list', async () => {
    const { flow } = flowWith({ allowedCallbackOrigins: ['https://other.example'] });
    expect((await new Browser(flow).request('GET', await signedLink(), 'm')).body).toContain(
      'not allowed',
    );
  });

  it('throws at construction for bad options, never echoing the secret', () => {
    expect(() => createConnectFlow({ secret: '', getIdentifier: () => 'm' })).toThrow(/secret/);
    expect(() => createConnectFlow({ secret: SECRET, getIdentifier: 'x' as never })).toThrow(
      /getIdentifier/,
    );
    expect(() =>
      createConnectFlow({ secret: SECRET, getIdentifier: () => 'm', confirm: 'no' as never }),
    ).toThrow(/confirm/);
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

describe('publicRequestUrl', () => {
  it('joins the public origin with the path and query the app received', () => {
    expect(publicRequestUrl('/connect?a=1&b=%20', APP)).toBe(`${APP}/connect?a=1&b=%20`);
    expect(publicRequestUrl('connect', APP)).toBe(`${APP}/connect`);
    // Never resolved into another host, and never a throw for odd paths.
    expect(new URL(publicRequestUrl('//evil.example/x', APP)).host).toBe('app.example.com');
    expect(publicRequestUrl('//[', APP)).toBe(`${APP}//[`);
  });
});
