import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { type ConnectFlowOptions, createConnectRedirect } from '@questkit/core';
import { connectEndpoint as expressConnect } from '@questkit/express';
import { connectEndpoint as fastifyConnect } from '@questkit/fastify';
import { connectEndpoint as honoConnect } from '@questkit/hono';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';

// The connect flow's confirmation token (the form field that makes the POST link), attacked over
// real HTTP in each adapter: taken into another session, altered, posted after it expired, and
// posted again after it was used. connect-confirm.test.ts covers the happy path and a replay.

const SECRET = 'confirmation-token-secret';
const CALLBACK = 'https://platform.example/connect/callback?s=1';
const ALICE = 'member-alice';
const MALLORY = 'member-mallory';
const memberOf = (cookie: string | undefined) => /(?:^|;\s*)sid=([^;]+)/.exec(cookie ?? '')?.[1];

interface Started {
  origin: string;
  linked: string[];
  close(): Promise<void>;
}
type Options = Pick<ConnectFlowOptions<unknown>, 'stateTtlSeconds'>;

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

const ADAPTERS: Record<string, (options: Options) => Promise<Started>> = {
  express: async (options) => {
    const linked: string[] = [];
    const app = express();
    app.all(
      '/connect',
      expressConnect({
        ...options,
        secret: SECRET,
        getIdentifier: (req) => memberOf(req.get('cookie')),
        onLinked: ({ identifier }) => void linked.push(identifier),
      }),
    );
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    return { origin: `http://127.0.0.1:${port}`, linked, close: () => closeServer(server) };
  },
  fastify: async (options) => {
    const linked: string[] = [];
    const app = Fastify();
    await app.register(fastifyConnect, {
      ...options,
      path: '/connect',
      secret: SECRET,
      getIdentifier: (request) => memberOf(request.headers.cookie),
      onLinked: ({ identifier }) => void linked.push(identifier),
    });
    const origin = await app.listen({ port: 0, host: '127.0.0.1' });
    return { origin, linked, close: () => app.close() };
  },
  hono: async (options) => {
    const linked: string[] = [];
    const app = new Hono();
    app.on(
      ['GET', 'POST'],
      '/connect',
      honoConnect({
        ...options,
        secret: SECRET,
        getIdentifier: (c) => memberOf(c.req.header('cookie')),
        onLinked: ({ identifier }) => void linked.push(identifier),
      }),
    );
    const server = await new Promise<Server>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
        resolve(s as Server),
      );
    });
    const { port } = server.address() as AddressInfo;
    return { origin: `http://127.0.0.1:${port}`, linked, close: () => closeServer(server) };
  },
};

/** A browser's cookie jar over fetch, logged in as `member`. */
class Browser {
  readonly jar: Map<string, string>;
  constructor(member: string) {
    this.jar = new Map([['sid', member]]);
  }
  async go(url: string, init: RequestInit = {}): Promise<Response> {
    const cookie = [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { accept: 'text/html', cookie, ...(init.headers as Record<string, string>) },
    });
    for (const set of response.headers.getSetCookie()) {
      const [pair, ...attributes] = set.split('; ');
      const [name, value] = pair!.split('=') as [string, string];
      if (attributes.includes('Max-Age=0')) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return response;
  }
}

const fieldsOf = (html: string) =>
  Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      m[1]!,
      m[2]!,
    ]),
  ) as { state: string; confirmation: string };

describe.each(Object.keys(ADAPTERS))('the confirmation token in %s, attacked', (name) => {
  let app: Started | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  const link = () =>
    createConnectRedirect({
      redirectUrl: `${app!.origin}/connect`,
      svcUserId: 'svc-0004',
      callback: CALLBACK,
      secret: SECRET,
    });
  /** Opens the link in `browser`: the confirmation page's fields. */
  const show = async (browser: Browser) => {
    const page = await browser.go(await link());
    expect(page.status).toBe(200);
    return fieldsOf(await page.text());
  };
  const post = (browser: Browser, fields: Record<string, string>, decision = 'confirm') =>
    browser.go(`${app!.origin}/connect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...fields, decision }).toString(),
    });

  it('from another session: another member’s browser, or this browser once another member logs in', async () => {
    app = await ADAPTERS[name]!({});
    const alice = new Browser(ALICE);
    const fields = await show(alice);
    // Mallory opened the same link in her own browser (her own nonce) and posts Alice's token.
    const mallory = new Browser(MALLORY);
    await show(mallory);
    expect((await post(mallory, fields)).status).toBe(400);
    // Alice's browser, its nonce intact, now logged in as Mallory.
    alice.jar.set('sid', MALLORY);
    expect((await post(alice, fields)).status).toBe(400);
    expect(app.linked).toEqual([]);
  });

  it('altered: any changed, cut or extended token, or another state, is refused; the original still works', async () => {
    app = await ADAPTERS[name]!({});
    const alice = new Browser(ALICE);
    const fields = await show(alice);
    const token = fields.confirmation;
    const flip = (text: string, at: number) =>
      `${text.slice(0, at)}${text[at] === '0' ? '1' : '0'}${text.slice(at + 1)}`;
    const other = await show(new Browser(ALICE));
    const altered = [
      { ...fields, confirmation: flip(token, 0) },
      { ...fields, confirmation: flip(token, token.length - 1) },
      { ...fields, confirmation: token.toUpperCase() },
      { ...fields, confirmation: token.slice(0, -1) },
      { ...fields, confirmation: `${token}0` },
      { ...fields, confirmation: '' },
      { ...fields, state: other.state },
      { state: fields.state, confirmation: other.confirmation },
    ];
    for (const attempt of altered) {
      expect((await post(alice, attempt)).status, JSON.stringify(attempt)).toBe(400);
    }
    expect(app.linked).toEqual([]);
    expect((await post(alice, fields)).status).toBe(303);
    expect(app.linked).toEqual([ALICE]);
  });

  it('expired: posted after the flow’s lifetime, it is refused', async () => {
    app = await ADAPTERS[name]!({ stateTtlSeconds: 1 });
    const alice = new Browser(ALICE);
    const fields = await show(alice);
    // The state's expiry is in whole seconds: two seconds later it has passed whatever the rounding.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const late = await post(alice, fields);
    expect(late.status).toBe(400);
    expect(await late.text()).toContain('expired');
    expect(app.linked).toEqual([]);
  });

  it('reused: after Confirm linked once, the same token links nothing more', async () => {
    app = await ADAPTERS[name]!({});
    const alice = new Browser(ALICE);
    const fields = await show(alice);
    expect((await post(alice, fields)).status).toBe(303);
    expect((await post(alice, fields)).status).toBe(400);
    expect((await post(alice, fields, 'cancel')).status).toBe(400);
    expect(app.linked).toEqual([ALICE]);
  });
});
