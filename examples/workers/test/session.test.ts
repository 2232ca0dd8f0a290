import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createConnectRedirect } from '@questkit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import worker, { type Env } from '../src/index.js';

// The Worker's connect flow attacked through its session cookie, over real HTTP on loopback: a
// visitor writes the cookie a victim's browser would hold and tries to have the victim's
// community identifier signed into the platform's callback. The signed session is computed here
// with node:crypto, outside the code under test, in hono/cookie's format (value.base64(HMAC)).

const ENV: Env = {
  QUEST_API_KEY: 'worker-task-key',
  CONNECT_SECRET: 'worker-connect-secret',
  WEBHOOK_SECRET: 'whsec_worker',
  SESSION_SECRET: 'worker-session-secret-0123456789abcdef',
};
const VICTIM = 'member-victim-1';
const ATTACKER = 'member-attacker-9';
const CALLBACK = 'https://platform.example/connect/callback?s=1';

let server: Server;
let origin = '';

beforeAll(async () => {
  // A Worker's fetch behind Node's HTTP server: the request as the Worker sees it, the answer as sent.
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const answer = await worker.fetch(
      new Request(`${origin}${req.url}`, { method: req.method, headers, body }),
      ENV,
    );
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

/** hono/cookie's signed value: `value.base64(HMAC-SHA256(secret, value))`, URI-encoded. */
function signed(value: string, secret = ENV.SESSION_SECRET): string {
  const mac = createHmac('sha256', secret).update(value).digest('base64');
  return encodeURIComponent(`${value}.${mac}`);
}
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;
const session = (member: string, expires = inAnHour()) =>
  `member=${signed(`${member}|${expires}`)}`;

/** The attacker's own signed link (his platform account), opened with `cookie`. */
async function openLink(cookie: string) {
  const link = await createConnectRedirect({
    redirectUrl: `${origin}/connect`,
    svcUserId: 'svc-attacker',
    callback: CALLBACK,
    secret: ENV.CONNECT_SECRET,
  });
  const answer = await fetch(link, {
    headers: { cookie, accept: 'text/html' },
    redirect: 'manual',
  });
  return {
    status: answer.status,
    location: answer.headers.get('location'),
    page: await answer.text(),
  };
}

describe('the Worker’s session cookie', () => {
  it('a valid session shows the confirmation for its member, and links it on Confirm', async () => {
    const shown = await openLink(session(ATTACKER));
    expect(shown.status).toBe(200);
    expect(shown.page).toContain(ATTACKER);
    // The flow's own nonce cookie and the confirmation token, as the browser would post them.
    const link = await createConnectRedirect({
      redirectUrl: `${origin}/connect`,
      svcUserId: 'svc-attacker',
      callback: CALLBACK,
      secret: ENV.CONNECT_SECRET,
    });
    const first = await fetch(link, { headers: { cookie: session(ATTACKER) }, redirect: 'manual' });
    const nonce = /qk_connect_nonce=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')![1]!;
    const html = await first.text();
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)![1]!;
    const confirmed = await fetch(`${origin}/connect`, {
      method: 'POST',
      headers: {
        cookie: `${session(ATTACKER)}; qk_connect_nonce=${nonce}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        state: field('state'),
        confirmation: field('confirmation'),
        decision: 'confirm',
      }).toString(),
      redirect: 'manual',
    });
    expect(confirmed.status).toBe(303);
    expect(new URL(confirmed.headers.get('location')!).searchParams.get('identifier')).toBe(
      ATTACKER,
    );
  });

  const forgeries: [string, () => string][] = [
    ['the bare member id the example once trusted', () => `member=${VICTIM}`],
    [
      'the victim’s id with the attacker’s signature',
      () => {
        const mine = decodeURIComponent(session(ATTACKER).slice('member='.length));
        const mac = mine.slice(mine.lastIndexOf('.'));
        return `member=${encodeURIComponent(`${VICTIM}|${inAnHour()}${mac}`)}`;
      },
    ],
    [
      'a session signed with another secret',
      () => `member=${signed(`${VICTIM}|${inAnHour()}`, 'guessed-secret')}`,
    ],
    [
      'a valid session altered by one character',
      () => {
        // A character inside the signature, not its last one: the last base64 character before
        // the `=` (`%3D`) carries two padding bits, so changing B, C or D to A there (one run in
        // 21) changes nothing the signature's bytes hold, and the session rightly verifies.
        const value = session(VICTIM);
        const changed = value.at(-8) === 'A' ? 'B' : 'A';
        return `${value.slice(0, -8)}${changed}${value.slice(-7)}`;
      },
    ],
    ['an expired session of the victim', () => session(VICTIM, Math.floor(Date.now() / 1000) - 1)],
    ['a signed value without an expiry', () => `member=${signed(VICTIM)}`],
  ];
  for (const [name, cookie] of forgeries) {
    it(`refuses ${name}: login, never a page naming the victim`, async () => {
      const answer = await openLink(cookie());
      expect(answer.status).toBe(302);
      expect(answer.location).toMatch(/^\/login\?returnTo=/);
      expect(answer.page).not.toContain(VICTIM);
    });
  }
});
