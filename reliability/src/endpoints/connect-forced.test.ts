/**
 * The connect flow as an attacker tries it, over real HTTP: forced linking (a victim who is
 * logged in opens the attacker's signed link), forged and replayed confirmations, a flow state
 * reused across browsers or twice, a replayed platform callback, a spoofed Host at the platform,
 * `returnTo` encodings and cross-site logins at the example community, and a login flood during
 * claims. Every attack must be accepted zero times.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { buildConnectCallback, createConnectRedirect } from '@questkit/core';
import { startServer as startCommunity } from '@questkit/example-connect';
import { connectEndpoint as expressConnect } from '@questkit/express';
import { connectEndpoint as fastifyConnect } from '@questkit/fastify';
import { connectEndpoint as honoConnect } from '@questkit/hono';
import { createMockPlatform, DEMO, startMockServer } from '@questkit/mock-platform';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { n, record } from '../report/record.js';

const AREA = 'Connect: forced linking and replay';
const SECRET = 'forced-linking-secret';
const VICTIM = 'member-victim';
const CALLBACK = 'https://platform.example/connect/callback?s=1';
const memberOf = (cookie: string | undefined) => /(?:^|;\s*)sid=([^;]+)/.exec(cookie ?? '')?.[1];

interface Community {
  origin: string;
  linked: string[];
  close(): Promise<void>;
}

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

const COMMUNITIES: Record<string, () => Promise<Community>> = {
  'express 5': async () => {
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
  },
  'fastify 5': async () => {
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
  },
  'hono 4': async () => {
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
      const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
        resolve(started as Server),
      );
    });
    const { port } = server.address() as AddressInfo;
    return { origin: `http://127.0.0.1:${port}`, linked, close: () => closeServer(server) };
  },
};

/** A browser's cookie jar over fetch. */
class Browser {
  readonly jar = new Map<string, string>();
  constructor(member?: string) {
    if (member) this.jar.set('sid', member);
  }
  async go(url: string, init: RequestInit = {}): Promise<Response> {
    const cookie = [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { accept: 'text/html', ...(cookie ? { cookie } : {}), ...(init.headers as object) },
    });
    for (const set of response.headers.getSetCookie()) {
      const [pair, ...attributes] = set.split('; ');
      const [name, value] = pair!.split('=') as [string, string];
      if (attributes.includes('Max-Age=0')) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return response;
  }
  post(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    return this.go(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }
}

const fieldsOf = (html: string) =>
  Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      m[1]!,
      m[2]!.replaceAll('&amp;', '&'),
    ]),
  );

const ATTACKS = 20;

describe.each(Object.keys(COMMUNITIES))('forced linking on the %s connect endpoint', (name) => {
  it(`links nothing for ${ATTACKS} forced links and their forged or replayed confirmations`, async () => {
    const community = await COMMUNITIES[name]!();
    const tried = { forcedGet: 0, foreignPost: 0, crossSitePost: 0, secondUse: 0 };
    try {
      for (let i = 0; i < ATTACKS; i++) {
        const link = await createConnectRedirect({
          redirectUrl: `${community.origin}/connect`,
          svcUserId: `attacker-${i}`,
          callback: CALLBACK,
          secret: SECRET,
        });
        // 1. The victim's browser opens the attacker's link (an image tag, a chat link).
        const victim = new Browser(VICTIM);
        const page = await victim.go(link);
        tried.forcedGet++;
        const fields = { ...fieldsOf(await page.text()), decision: 'confirm' };
        // 2. The attacker replays the page's confirmation from his own browser.
        await new Browser(VICTIM).post(`${community.origin}/connect`, fields);
        tried.foreignPost++;
        // 3. A cross-site auto-submitted form: SameSite=Lax keeps the nonce cookie home.
        const crossSite = new Browser(VICTIM);
        await crossSite.post(`${community.origin}/connect`, fields, {
          origin: 'https://evil.example',
        });
        tried.crossSitePost++;
        // 4. The victim cancels; the same state then cannot be confirmed a second time.
        await victim.post(`${community.origin}/connect`, { ...fields, decision: 'cancel' });
        await victim.post(`${community.origin}/connect`, fields);
        tried.secondUse++;
      }
      const accepted = community.linked.length;
      record({
        area: AREA,
        subject: name,
        requests: ATTACKS * 5,
        faults: ATTACKS * 4,
        held:
          `${n(tried.forcedGet)} forced links opened by a logged-in victim (GET only), ${n(tried.foreignPost)} confirmations ` +
          `replayed from another browser, ${n(tried.crossSitePost)} cross-site confirmation posts, ${n(tried.secondUse)} ` +
          `second uses after Cancel: ${accepted} links made`,
        violations: accepted,
      });
      expect(community.linked).toEqual([]);
    } finally {
      await community.close();
    }
  });
});

describe('the mock platform, service side of connect', () => {
  it('refuses replayed callbacks and never builds a callback on the Host header', async () => {
    const mock = await startMockServer(
      createMockPlatform({ endpointChecks: false, rateLimit: false }),
      {
        port: 0,
      },
    );
    try {
      const user = DEMO.users.editor;
      const start = `/__mock/connect/start?subdomain=demo&questId=${DEMO.quests.partnerConnect}&userId=${user}`;
      let replays = 0;
      let restored = 0;
      for (let i = 0; i < ATTACKS; i++) {
        const started = await fetch(`${mock.url}${start}`, { redirect: 'manual' });
        const callback = new URL(started.headers.get('location')!).searchParams.get('callback')!;
        const answer = await buildConnectCallback(callback, `partner-${i}`, DEMO.connectSecret);
        expect((await fetch(answer)).status).toBe(200);
        // The member removes the association; the captured callback is replayed.
        mock.platform.store.connections.deleteByUser(user);
        const replay = await fetch(answer);
        replays++;
        if (replay.status === 200 || mock.platform.store.connections.listByUser(user).length > 0)
          restored++;
      }
      // A page that rebinds its name to 127.0.0.1 asks the mock to start a flow.
      const spoofed = await new Promise<string>((resolve, reject) => {
        import('node:http').then(({ request }) => {
          const req = request(
            `${mock.url}${start}`,
            { headers: { host: 'evil.example' } },
            (res) => {
              res.resume();
              resolve(String(res.headers.location ?? ''));
            },
          );
          req.on('error', reject);
          req.end();
        }, reject);
      });
      const spoofedCallback = spoofed
        ? new URL(new URL(spoofed).searchParams.get('callback') ?? 'http://none.invalid').host
        : '(refused)';
      const hostFollowed = spoofedCallback === 'evil.example' ? 1 : 0;
      record({
        area: AREA,
        subject: 'mock platform',
        requests: ATTACKS * 3 + 1,
        faults: ATTACKS + 1,
        held:
          `${n(replays)} callbacks replayed after the association was removed: ${restored} restored; a start with ` +
          `Host: evil.example built its callback on ${spoofedCallback}`,
        violations: restored + hostFollowed,
      });
      expect(restored).toBe(0);
      expect(hostFollowed).toBe(0);
    } finally {
      await mock.close();
    }
  });
});

describe('the connect example community, its login', () => {
  it('never leaves the site after login, refuses cross-site logins, and answers claims during a login flood', async () => {
    const community = await startCommunity({
      apiKey: 'flood-key',
      connectSecret: SECRET,
      port: 0,
      loginAttemptsPerMinute: 10_000,
    });
    try {
      const loginForm = async () => {
        const page = await fetch(`${community.url}/login`);
        const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!;
        return { csrf, cookie: page.headers.getSetCookie()[0]!.split(';')[0]! };
      };
      const logIn = async (returnTo: string, headers: Record<string, string> = {}) => {
        const { csrf, cookie } = await loginForm();
        return fetch(`${community.url}/login`, {
          method: 'POST',
          redirect: 'manual',
          headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
          body: new URLSearchParams({
            username: 'ada',
            password: 'ada-demo-password',
            returnTo,
            csrf,
          }),
        });
      };
      const returnTos = [
        '//evil.example/phish',
        '/%09/evil.example/phish',
        '/\t/evil.example/phish',
        '/%2F/evil.example',
        '/\\evil.example',
        '/%5Cevil.example',
        '/x%0d%0aLocation:%20https://evil.example',
        'https://evil.example/',
        '/%2e%2e/%2f%2fevil.example',
        '/..//evil.example',
        '/a/..//evil.example',
        'javascript:alert(1)',
      ];
      let offSite = 0;
      for (const returnTo of returnTos) {
        const answer = await logIn(returnTo);
        const location = new URL(answer.headers.get('location') ?? '/', community.url);
        if (answer.status >= 500 || location.origin !== new URL(community.url).origin) offSite++;
      }
      let crossSiteSessions = 0;
      for (const origin of ['https://evil.example', 'null']) {
        const answer = await logIn('/', { origin });
        if (answer.headers.getSetCookie().some((cookie) => cookie.startsWith('sid=')))
          crossSiteSessions++;
      }
      // A flood of 280 logins while claims arrive: claims must not wait for the hashing.
      const { csrf, cookie } = await loginForm();
      let loginsDone = 0;
      const flood = Array.from({ length: 280 }, () =>
        fetch(`${community.url}/login`, {
          method: 'POST',
          redirect: 'manual',
          headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ username: 'ada', password: 'wrong', returnTo: '/', csrf }),
        }).then(() => {
          loginsDone++;
        }),
      );
      const claims = await Promise.all(
        Array.from({ length: 10 }, () =>
          fetch(community.verifyUrl, {
            method: 'POST',
            headers: { 'x-api-key': 'flood-key' },
            body: '{}',
          }),
        ),
      );
      const doneWhenAnswered = loginsDone;
      await Promise.all(flood);
      const claimsHeld = claims.every((claim) => claim.status === 400) && doneWhenAnswered < 280;
      record({
        area: AREA,
        subject: 'connect example (login)',
        requests: returnTos.length * 2 + 4 + 290,
        faults: returnTos.length + 2 + 280,
        held:
          `${returnTos.length} returnTo encodings: ${offSite} left the site or failed; 2 cross-site logins: ` +
          `${crossSiteSessions} sessions; 280 parallel logins: 10 claims answered while ${280 - doneWhenAnswered} logins still hashed`,
        violations: offSite + crossSiteSessions + (claimsHeld ? 0 : 1),
      });
      expect({ offSite, crossSiteSessions, claimsHeld }).toEqual({
        offSite: 0,
        crossSiteSessions: 0,
        claimsHeld: true,
      });
    } finally {
      await community.close();
    }
  }, 120_000);
});
