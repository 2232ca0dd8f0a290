import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createConnectRedirect } from '@questkit/core';
import { connectEndpoint as expressConnect } from '@questkit/express';
import { connectEndpoint as fastifyConnect } from '@questkit/fastify';
import { connectEndpoint as honoConnect } from '@questkit/hono';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';

// The confirmation step of the connect flow in each adapter, over real HTTP on loopback, with a
// client that keeps cookies as a browser does. The app's session is a cookie naming the member.

const SECRET = 'confirm-e2e-secret';
const CALLBACK = 'https://platform.example/connect/callback?s=1';
const MEMBER = 'member-1002';
const memberOf = (cookie: string | undefined) => /(?:^|;\s*)sid=([^;]+)/.exec(cookie ?? '')?.[1];

interface Started {
  origin: string;
  linked: string[];
  close(): Promise<void>;
}

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

async function startExpress(): Promise<Started> {
  const linked: string[] = [];
  const app = express();
  app.all(
    '/connect',
    expressConnect({
      secret: SECRET,
      getIdentifier: (req) => memberOf(req.get('cookie')),
      onLinked: ({ identifier }) => void linked.push(identifier),
    }),
  );
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, linked, close: () => closeServer(server) };
}

async function startFastify(): Promise<Started> {
  const linked: string[] = [];
  const app = Fastify();
  await app.register(fastifyConnect, {
    path: '/connect',
    secret: SECRET,
    getIdentifier: (request) => memberOf(request.headers.cookie),
    onLinked: ({ identifier }) => void linked.push(identifier),
  });
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  return { origin, linked, close: () => app.close() };
}

async function startHono(): Promise<Started> {
  const linked: string[] = [];
  const app = new Hono();
  app.on(
    ['GET', 'POST'],
    '/connect',
    honoConnect({
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
}

/** A browser's cookie jar over fetch: sends what it holds, keeps what it is given. */
class Browser {
  readonly jar = new Map<string, string>([['sid', MEMBER]]);
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

const form = (html: string) =>
  Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      m[1]!,
      m[2]!,
    ]),
  );

const ADAPTERS = [
  { name: 'Express', start: startExpress },
  { name: 'Fastify', start: startFastify },
  { name: 'Hono', start: startHono },
];

describe.each(ADAPTERS)('connect confirmation over HTTP: $name', ({ start }) => {
  let app: Started | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  const link = (origin: string) =>
    createConnectRedirect({
      redirectUrl: `${origin}/connect`,
      svcUserId: 'svc-0004',
      callback: CALLBACK,
      secret: SECRET,
    });

  it('links nothing on a GET alone (an image tag, a link in a chat)', async () => {
    app = await start();
    const page = await new Browser().go(await link(app.origin));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(
      `account <strong>${MEMBER}</strong> to platform member <strong>…0004</strong>`,
    );
    expect(app.linked).toEqual([]);
  });

  it('links on Confirm and sends the member to the signed callback', async () => {
    app = await start();
    const browser = new Browser();
    const fields = form(await (await browser.go(await link(app.origin))).text());
    const confirmed = await browser.go(`${app.origin}/connect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...fields, decision: 'confirm' }).toString(),
    });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toMatch(
      /^https:\/\/platform\.example\/connect\/callback\?s=1&identifier=member-1002&signature=[0-9a-f]{64}$/,
    );
    expect(app.linked).toEqual([MEMBER]);
  });

  it('links nothing on Cancel, and refuses a replay or another browser', async () => {
    app = await start();
    const browser = new Browser();
    const fields = form(await (await browser.go(await link(app.origin))).text());
    const post = (who: Browser, decision: string) =>
      who.go(`${app!.origin}/connect`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...fields, decision }).toString(),
      });
    const other = await post(new Browser(), 'confirm');
    expect(other.status).toBe(400);
    const cancelled = await post(browser, 'cancel');
    expect(cancelled.status).toBe(200);
    expect(await cancelled.text()).toContain('not linked');
    expect((await post(browser, 'confirm')).status).toBe(400);
    expect(app.linked).toEqual([]);
  });
});
