import { createServer, type IncomingMessage } from 'node:http';
import { type AddressInfo, connect as tcpConnect } from 'node:net';
import { createConnectFlow } from '@questkit/core';
import { requestFromNode, writeNodeAnswer } from '@questkit/core/adapter';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockPlatform } from '../platform.js';
import { DEMO } from '../seed/demo-ids.js';
import { type MockServer, type MockServerOptions, startMockServer } from '../server.js';
import { apiQuest } from '../service.testkit.js';

// The mock exposed beyond loopback, with a control token, attacked by someone who can reach it
// but holds no token (and, for the body tests, no credential): over real HTTP on loopback, the
// token option being what binding beyond loopback turns on.

const TOKEN = 'ctl-token-exposed-0123456789';
const VICTIM = DEMO.users.editor;
const ATTACKER_ACCOUNT = 'attacker-community-account';

let mock: MockServer | undefined;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  for (const close of closers.splice(0)) await close();
});

async function start(server: MockServerOptions = {}, controlToken: string | null = TOKEN) {
  mock = await startMockServer(
    createMockPlatform({
      endpointChecks: false,
      rateLimit: false,
      ...(controlToken === null ? {} : { controlToken }),
    }),
    { port: 0, ...server },
  );
  return mock;
}

/** A community whose logged-in member is the attacker: core's flow, linking at once. */
async function attackersCommunity(secret: string) {
  const flow = createConnectFlow<IncomingMessage>({
    confirm: false,
    secret,
    getIdentifier: () => ATTACKER_ACCOUNT,
  });
  const server = createServer((req, res) => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${req.url}`;
    void flow
      .handle({ ...requestFromNode(req), url }, req)
      .then((answer) => writeNodeAnswer(res, answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Points the demo's connect quest at `community` (the community's admin does this, with its key). */
function pointConnectQuestAt(server: MockServer, community: string) {
  const store = server.platform.store;
  const quest = store.quests.get(DEMO.quests.partnerConnect)!;
  store.quests.put({
    ...quest,
    tasks: quest.tasks.map((task) =>
      task.settings.redirectUrl
        ? { ...task, settings: { ...task.settings, redirectUrl: `${community}/connect` } }
        : task,
    ),
  });
}

const startPath = (userId: string, questId: string = DEMO.quests.partnerConnect) =>
  `/__mock/connect/start?subdomain=demo&questId=${questId}&userId=${userId}`;

describe('the connect routes of an exposed mock, without the control token', () => {
  it('cannot link a victim member to the attacker’s community account, end to end', async () => {
    const server = await start();
    pointConnectQuestAt(server, await attackersCommunity(DEMO.connectSecret));
    // The attacker's browser: start as the victim, follow to the community, back to the mock.
    const first = await fetch(`${server.url}${startPath(VICTIM)}`, { redirect: 'manual' });
    expect(first.status).toBe(403);
    expect(first.headers.get('location')).toBeNull();
    expect(await first.text()).toContain('control token');
    expect(server.platform.store.connections.listByUser(VICTIM)).toEqual([]);
  });

  it('cannot probe member ids, quest ids or subdomains through start', async () => {
    const server = await start();
    const answers = new Set<string>();
    for (const path of [
      startPath(VICTIM),
      startPath('10000000-0000-4000-8000-00000000dead'),
      startPath(VICTIM, '20000000-0000-4000-8000-00000000dead'),
      `/__mock/connect/start?subdomain=nope&questId=x&userId=${VICTIM}`,
    ]) {
      const answer = await fetch(`${server.url}${path}`, { redirect: 'manual' });
      answers.add(`${answer.status} ${await answer.text()}`);
    }
    expect([...answers]).toHaveLength(1);
    expect([...answers][0]).toMatch(/^403 /);
  });

  it('cannot probe subdomains or members through the callback: without a live nonce, one answer', async () => {
    const server = await start();
    const answers = new Set<string>();
    for (const query of [
      'subdomain=demo',
      'subdomain=nope',
      `subdomain=demo&userId=${VICTIM}&redirectUrl=x&identifier=a&nonce=00&signature=${'0'.repeat(64)}`,
      `subdomain=nope&userId=${VICTIM}&redirectUrl=x&identifier=a&nonce=00&signature=${'0'.repeat(64)}`,
      'subdomain=demo&signature=zz',
      '',
    ]) {
      const answer = await fetch(`${server.url}/__mock/connect/callback?${query}`, {
        headers: { accept: 'application/json' },
      });
      answers.add(`${answer.status} ${await answer.text()}`);
    }
    expect([...answers]).toHaveLength(1);
    expect([...answers][0]).toContain('used_nonce');
  });

  it('cannot list the subdomains through the dashboard page', async () => {
    const server = await start();
    server.platform.store.communities.put({
      ...server.platform.store.communities.getBySubdomain('demo')!,
      id: '00000000-0000-4000-8000-00000000c0de',
      subdomain: 'secret-partner-space',
    });
    const page = await fetch(`${server.url}/__mock/dashboard`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toContain('secret-partner-space');
    expect(html).not.toMatch(/<option value="demo"/);
    // The list is a control route: the token opens it, and only the token.
    expect((await fetch(`${server.url}/__mock/communities`)).status).toBe(403);
    const listed = await fetch(`${server.url}/__mock/communities`, {
      headers: { 'x-questkit-control-token': TOKEN },
    });
    expect(await listed.json()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ subdomain: 'demo' }),
        expect.objectContaining({ subdomain: 'secret-partner-space' }),
      ]),
    );
  });

  it('keeps the real flow usable: the token holder starts it, the browser needs no token after', async () => {
    const server = await start();
    pointConnectQuestAt(server, await attackersCommunity(DEMO.connectSecret));
    // The dashboard asks for the signed link as JSON, with the token...
    const started = await fetch(`${server.url}${startPath(VICTIM)}`, {
      headers: { 'x-questkit-control-token': TOKEN, accept: 'application/json' },
    });
    expect(started.status).toBe(200);
    const { location } = (await started.json()) as { location: string };
    // ...a script may take the 302 instead...
    const redirect = await fetch(`${server.url}${startPath(VICTIM)}`, {
      headers: { 'x-questkit-control-token': TOKEN },
      redirect: 'manual',
    });
    expect(redirect.status).toBe(302);
    // ...and the member's browser goes to the community, which sends it back to the callback.
    const atCommunity = await fetch(location, { redirect: 'manual' });
    expect(atCommunity.status).toBe(302);
    const back = await fetch(atCommunity.headers.get('location')!, {
      headers: { accept: 'application/json' },
    });
    expect(back.status).toBe(200);
    expect(server.platform.store.connections.listByUser(VICTIM)).toEqual([
      expect.objectContaining({ identifier: ATTACKER_ACCOUNT }),
    ]);
  });
});

describe('spellings of control paths, without the control token', () => {
  it('reach no control route: each a 403, or a 404 that names no data', async () => {
    const server = await start();
    const q = `?subdomain=demo&questId=${DEMO.quests.partnerConnect}&userId=${VICTIM}`;
    const paths = [
      '//__mock/clock',
      '/__mock//clock',
      '/__MOCK/clock',
      '/%5F%5Fmock/clock',
      '/__mock/%63lock',
      '/__mock/clock/',
      '/__mock/connect/callback/../../clock',
      '/__mock/connect/callback%2F..%2F..%2Fclock',
      '/__mock/dashboard/../communities',
      '/__mock/dashboard%2F..%2Fcommunities',
      '//__mock/communities/demo/secret',
      '/__mock/communities/demo/secret/',
      `//__mock/connect/start${q}`,
      `/__mock//connect/start${q}`,
      `/__mock/connect/start/${q}`,
      `/__mock/connect/%73tart${q}`,
      `/__mock/connect/callback;/../start${q}`,
      '/__mock/dashboard/app.js/..',
    ];
    const leaks: string[] = [];
    for (const path of paths) {
      for (const method of ['GET', 'HEAD', 'OPTIONS', 'POST']) {
        const answer = await fetch(`${server.url}${path}`, { method, redirect: 'manual' });
        const text = await answer.text();
        const refused =
          answer.status === 403 ||
          (answer.status === 404 && (method === 'HEAD' || text.startsWith('{"message":"No route')));
        if (!refused) leaks.push(`${method} ${path}: ${answer.status} ${text.slice(0, 60)}`);
      }
    }
    expect(leaks).toEqual([]);
  });
});

describe('a task redirectUrl pointing at the mock’s own callback', () => {
  it('does not make the mock sign a callback: a read-write key cannot store a member link', async () => {
    // Loopback, no control token: the attacker holds the demo community's read-write key only.
    const server = await start({}, null);
    // 1. A live nonce for the victim, read from a start's signed redirect (not followed).
    const first = await fetch(`${server.url}${startPath(VICTIM)}`, { redirect: 'manual' });
    const callback = new URL(new URL(first.headers.get('location')!).searchParams.get('callback')!);
    const nonce = callback.searchParams.get('nonce')!;
    // 2. A quest whose task "redirects" to the mock's own callback, carrying the forged link.
    const forged = new URL(`${server.url}/__mock/connect/callback`);
    forged.search = new URLSearchParams({
      subdomain: 'demo',
      userId: VICTIM,
      redirectUrl: 'https://attacker.example/connect',
      identifier: ATTACKER_ACCOUNT,
      nonce,
    }).toString();
    const created = await fetch(`${server.url}/public/communities/demo/quests`, {
      method: 'POST',
      headers: { 'x-api-key': DEMO.apiKeys.readWrite, 'content-type': 'application/json' },
      body: JSON.stringify(
        apiQuest({
          endpoint: 'https://attacker.example/verify',
          identifications: ['svc-connect'],
          redirectUrl: forged.href,
        }),
      ),
    });
    expect(created.status).toBe(200);
    const questId = ((await created.json()) as { id: string }).id;
    // 3. The mock refuses to sign it; had it signed, the link would have been a valid callback.
    const signed = await fetch(`${server.url}${startPath(VICTIM, questId)}`, {
      redirect: 'manual',
    });
    expect(signed.status).toBe(409);
    expect(signed.headers.get('location')).toBeNull();
    expect(server.platform.store.connections.listByUser(VICTIM)).toEqual([]);
  });

  it('held before too: other names and spellings of the callback path never verify', async () => {
    const server = await start({}, null);
    const first = await fetch(`${server.url}${startPath(VICTIM)}`, { redirect: 'manual' });
    const nonce = new URL(
      new URL(first.headers.get('location')!).searchParams.get('callback')!,
    ).searchParams.get('nonce')!;
    const violations: string[] = [];
    const other = server.url.replace('127.0.0.1', 'localhost');
    for (const base of [
      `${other}/__mock/connect/callback`,
      `${server.url}/__mock/connect/callback/`,
      `${server.url}/__mock/connect/%63allback`,
      `${server.url}//__mock/connect/callback`,
    ]) {
      const store = server.platform.store;
      const quest = store.quests.get(DEMO.quests.partnerConnect)!;
      const forged = `${base}?${new URLSearchParams({ subdomain: 'demo', userId: VICTIM, redirectUrl: 'x', identifier: ATTACKER_ACCOUNT, nonce })}`;
      store.quests.put({
        ...quest,
        tasks: quest.tasks.map((task) =>
          task.settings.redirectUrl
            ? { ...task, settings: { ...task.settings, redirectUrl: forged } }
            : task,
        ),
      });
      const signed = await fetch(`${server.url}${startPath(VICTIM)}`, { redirect: 'manual' });
      const location = signed.headers.get('location');
      if (location) {
        const followed = await fetch(location.replace(other, server.url), {
          headers: { accept: 'application/json' },
        });
        if (followed.status === 200) violations.push(`${base}: ${await followed.text()}`);
      }
    }
    expect(violations).toEqual([]);
    expect(server.platform.store.connections.listByUser(VICTIM)).toEqual([]);
  });
});

/** A raw connection: what an attacker writes, and the first answer it gets (or the close). */
function rawConnection(port: number) {
  const socket = tcpConnect(port, '127.0.0.1');
  let received = '';
  let closed = false;
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    received += chunk;
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    closed = true;
  });
  return {
    write: (text: string) => new Promise<void>((resolve) => socket.write(text, () => resolve())),
    /** Waits (up to `limitMs`) for an answer's status line, or the close. */
    async answer(limitMs = 8_000): Promise<{ status: number | null; closed: boolean }> {
      for (const started = Date.now(); Date.now() - started < limitMs; ) {
        const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
        if (status || closed) return { status: status ? Number(status) : null, closed };
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return { status: null, closed };
    },
    async closedWithin(limitMs: number): Promise<boolean> {
      for (const started = Date.now(); Date.now() - started < limitMs && !closed; ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return closed;
    },
    destroy: () => socket.destroy(),
  };
}

const head = (path: string, headers: Record<string, string>) =>
  `POST ${path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;

describe('bodies of requests that will be refused are not read', () => {
  const MIB = 1024 * 1024;
  const cases: [string, (host: string) => [string, Record<string, string>], number][] = [
    [
      'no API key on a public route',
      (host) => ['/public/communities/demo/quests', { host, 'content-type': 'application/json' }],
      401,
    ],
    [
      'a wrong API key',
      (host) => [
        '/public/communities/demo/quests',
        { host, 'content-type': 'application/json', 'x-api-key': 'not-a-key' },
      ],
      401,
    ],
    [
      'a foreign Host',
      () => [
        '/public/communities/demo/quests',
        { host: 'attacker.example', 'x-api-key': DEMO.apiKeys.readWrite },
      ],
      403,
    ],
    [
      'no control token on a control route',
      (host) => ['/__mock/tokens', { host, 'content-type': 'application/json' }],
      403,
    ],
  ];
  for (const [name, build, status] of cases) {
    it(`${name}: refused (${status}) while the body is still coming, and the connection closed`, async () => {
      const server = await start();
      const [path, headers] = build(`127.0.0.1:${server.port}`);
      const connection = rawConnection(server.port);
      await connection.write(head(path, { ...headers, 'content-length': String(MIB) }));
      await connection.write('{"name":"'.padEnd(4096, 'x'));
      // The rest of the megabyte never comes: the answer must not wait for it.
      const answer = await connection.answer();
      expect(answer.status).toBe(status);
      expect(await connection.closedWithin(8_000)).toBe(true);
      connection.destroy();
    }, 20_000);
  }

  it('40 stalled unauthenticated uploads each get their refusal, and the mock still answers', async () => {
    const server = await start();
    const connections = Array.from({ length: 40 }, () => rawConnection(server.port));
    for (const connection of connections) {
      await connection.write(
        head('/public/communities/demo/quests', {
          host: `127.0.0.1:${server.port}`,
          'content-length': String(MIB),
        }),
      );
      await connection.write('x'.repeat(64 * 1024));
    }
    const statuses = await Promise.all(connections.map((connection) => connection.answer()));
    expect(statuses.map((answer) => answer.status)).toEqual(Array(40).fill(401));
    for (const connection of connections) connection.destroy();
    const ok = await fetch(`${server.url}/public/communities/demo`, {
      headers: { 'x-api-key': DEMO.apiKeys.readOnly },
    });
    expect(ok.status).toBe(200);
  }, 30_000);
});

describe('read deadlines', () => {
  it('closes a connection whose headers never end', async () => {
    const server = await start({ headersTimeoutMs: 500, requestTimeoutMs: 1_000 });
    const connection = rawConnection(server.port);
    await connection.write(`GET /public/communities/demo HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: `);
    expect(await connection.closedWithin(10_000)).toBe(true);
  }, 20_000);

  it('closes a connection whose body, with a valid key, never ends', async () => {
    const server = await start({ headersTimeoutMs: 500, requestTimeoutMs: 1_000 });
    const connection = rawConnection(server.port);
    await connection.write(
      head('/public/communities/demo/quests', {
        host: `127.0.0.1:${server.port}`,
        'x-api-key': DEMO.apiKeys.readWrite,
        'content-type': 'application/json',
        'content-length': '1000',
      }),
    );
    await connection.write('{"name":');
    expect(await connection.closedWithin(10_000)).toBe(true);
  }, 20_000);

  it('refuses a deadline it cannot keep: headers longer than the whole request', async () => {
    await expect(
      startMockServer(createMockPlatform(), {
        port: 0,
        headersTimeoutMs: 5_000,
        requestTimeoutMs: 1_000,
      }),
    ).rejects.toThrow(TypeError);
  });
});
