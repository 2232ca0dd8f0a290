import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  buildConnectCallback,
  type CallbackParam,
  type ConnectLink,
  createConnectFlow,
  signUrl,
} from '@questkit/core';
import { requestFromNode, writeNodeAnswer } from '@questkit/core/adapter';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../clock.js';
import { createMockPlatform, type MockPlatformOptions } from '../platform.js';
import { DEMO } from '../seed/demo-ids.js';
import { type MockServer, startMockServer } from '../server.js';
import {
  apiQuest,
  createServicePlatform,
  message,
  startServer,
  type TestServer,
} from '../service.testkit.js';
import type { ClaimResult } from './claim-result.js';

const user = DEMO.users.editor;

/** The community side of connect, built with core's helpers, served over real HTTP. */
async function startCommunity(secret: string, identifier: string) {
  const links: ConnectLink[] = [];
  const flow = createConnectFlow<IncomingMessage>({
    // The service side is under test here: the community links at once.
    confirm: false,
    secret,
    getIdentifier: () => identifier,
    onLinked: (link) => {
      links.push(link);
    },
  });
  const server = createServer((req, res) => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${req.url}`;
    void flow
      .handle({ ...requestFromNode(req), url }, req)
      .then((answer) => writeNodeAnswer(res, answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    links,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('the connect loop over real HTTP, against core’s community side', () => {
  let community: Awaited<ReturnType<typeof startCommunity>>;
  let endpoint: TestServer;
  let mock: MockServer;
  const errors: unknown[] = [];

  const start = async (options: MockPlatformOptions = {}) => {
    mock = await startMockServer(
      createMockPlatform({
        clock: createManualClock('2025-06-01T12:00:00Z'),
        endpointChecks: false,
        rateLimit: false,
        onError: (error) => errors.push(error),
        ...options,
      }),
      { port: 0 },
    );
  };

  beforeEach(async () => {
    community = await startCommunity(DEMO.connectSecret, 'partner-user-42');
    endpoint = await startServer(() => message(200, 'Linked and verified'));
  });

  afterEach(async () => {
    await mock.close();
    await community.close();
    await endpoint.close();
    expect(errors).toEqual([]);
  });

  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${mock.url}${path}`, {
      method,
      headers: {
        'x-api-key': DEMO.apiKeys.readWrite,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, text: await response.text(), headers: response.headers };
  };

  const connectQuest = async () => {
    const created = await api(
      'POST',
      '/public/communities/demo/quests',
      apiQuest({
        endpoint: `${endpoint.url}/verify`,
        identifications: ['svc-connect'],
        redirectUrl: `${community.url}/connect`,
      }),
    );
    expect(created.status).toBe(200);
    return (JSON.parse(created.text) as { id: string }).id;
  };

  /** Follows the browser's path: mock start -> community -> mock callback. */
  const connect = async (questId: string, query = '') => {
    const first = await fetch(
      `${mock.url}/__mock/connect/start?subdomain=demo&questId=${questId}&userId=${user}${query}`,
      { redirect: 'manual' },
    );
    expect(first.status).toBe(302);
    const toCommunity = new URL(first.headers.get('location')!);
    const second = await fetch(toCommunity, { redirect: 'manual' });
    expect(second.status).toBe(302);
    const toMock = second.headers.get('location')!;
    const third = await fetch(toMock, { headers: { accept: 'text/html' } });
    return { toCommunity, toMock, status: third.status, page: await third.text() };
  };

  const claim = async (questId: string) =>
    JSON.parse(
      (await api('POST', `/__mock/communities/demo/quests/${questId}/claims`, { userId: user }))
        .text,
    ) as ClaimResult;

  it.each<[string, MockPlatformOptions, string, CallbackParam]>([
    ['callback by default', {}, '', 'callback'],
    [
      'callbackUrl through the platform option',
      { connectCallbackParam: 'callbackUrl' },
      '',
      'callbackUrl',
    ],
    ['callbackUrl through the start query', {}, '&callbackParam=callbackUrl', 'callbackUrl'],
  ])('links the member (%s) and later claims send the identifier', async (_name, options, query, param) => {
    await start(options);
    const questId = await connectQuest();
    const before = await claim(questId);
    expect(before).toMatchObject({ status: 'failed', reason: 'account-not-linked' });

    const loop = await connect(questId, query);
    const other: CallbackParam = param === 'callback' ? 'callbackUrl' : 'callback';
    expect(loop.toCommunity.searchParams.get('svcUserId')).toBe(user);
    expect(loop.toCommunity.searchParams.has(param)).toBe(true);
    expect(loop.toCommunity.searchParams.has(other)).toBe(false);
    expect(loop.toCommunity.searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(loop.toCommunity.searchParams.get(param)).toMatch(
      new RegExp(`^${mock.url}/__mock/connect/callback\\?`),
    );
    expect(loop.status).toBe(200);
    expect(loop.page).toContain('Account connected');
    expect(community.links).toEqual([
      {
        svcUserId: user,
        identifier: 'partner-user-42',
        callback: loop.toCommunity.searchParams.get(param),
      },
    ]);

    const after = await claim(questId);
    expect(after.status).toBe('success');
    expect((endpoint.received.at(-1)!.json as { accounts: unknown }).accounts).toEqual({
      'svc-connect': 'partner-user-42',
    });
  });

  it('connects every task with the same redirect URL, until the association is removed', async () => {
    await start();
    const first = await connectQuest();
    const second = await connectQuest();
    await connect(first);
    expect((await claim(second)).status).toBe('success');

    const listed = await api('GET', `/__mock/communities/demo/users/${user}/connections`);
    expect(JSON.parse(listed.text)).toEqual([
      expect.objectContaining({
        userId: user,
        redirectUrl: `${community.url}/connect`,
        identifier: 'partner-user-42',
      }),
    ]);

    const removed = await api('DELETE', `/public/communities/demo/users/${user}/connect`);
    expect(removed.status).toBe(200);
    // The quest is daily: the next try is on the next day of the mock clock.
    await mock.platform.service.advanceClock(86_400_000);
    expect(await claim(second)).toMatchObject({ status: 'failed', reason: 'account-not-linked' });
  });

  it('refuses a callback whose signature is missing, wrong or over changed parameters (400)', async () => {
    await start();
    const questId = await connectQuest();
    const started = await fetch(
      `${mock.url}/__mock/connect/start?subdomain=demo&questId=${questId}&userId=${user}`,
      { redirect: 'manual' },
    );
    const callback = new URL(started.headers.get('location')!).searchParams.get('callback')!;
    const signed = new URL(
      await buildConnectCallback(callback, 'partner-user-42', DEMO.connectSecret),
    );

    const unsigned = new URL(signed);
    unsigned.searchParams.delete('signature');
    const wrongSecret = await buildConnectCallback(callback, 'partner-user-42', 'not-the-secret');
    const otherMember = new URL(signed);
    otherMember.searchParams.set('userId', DEMO.users.reviewer);
    const otherIdentifier = new URL(signed);
    otherIdentifier.searchParams.set('identifier', 'someone-else');

    for (const [url, reason] of [
      [unsigned.href, 'missing_signature'],
      [wrongSecret, 'bad_signature'],
      [otherMember.href, 'bad_signature'],
      [otherIdentifier.href, 'bad_signature'],
    ] as const) {
      const answer = await fetch(url, { headers: { accept: 'application/json' } });
      expect(answer.status, url).toBe(400);
      expect(await answer.json()).toMatchObject({ connected: false, reason });
    }
    const page = await fetch(unsigned, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(400);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('Account not connected');
    expect(
      JSON.parse((await api('GET', `/__mock/communities/demo/users/${user}/connections`)).text),
    ).toEqual([]);

    const good = await fetch(signed, { headers: { accept: 'application/json' } });
    expect(good.status).toBe(200);
  });
});

describe('connect start and callback, in-process', () => {
  it('points the callback at baseUrl and verifies against it', async () => {
    const mock = createServicePlatform({
      baseUrl: 'https://mock.example/base/',
      endpointChecks: false,
    });
    const started = await mock.call(
      'GET',
      `/__mock/connect/start?subdomain=demo&questId=${DEMO.quests.partnerConnect}&userId=${user}`,
    );
    expect(started.status).toBe(302);
    const location = new URL(started.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(DEMO.connectRedirectUrl);
    const callback = location.searchParams.get('callback')!;
    expect(callback.startsWith('https://mock.example/base/__mock/connect/callback?')).toBe(true);

    const answer = new URL(
      await buildConnectCallback(callback, 'demo-partner-7', DEMO.connectSecret),
    );
    const received = await mock.call('GET', `/__mock/connect/callback${answer.search}`);
    expect(received.status).toBe(200);
    expect(mock.platform.store.connections.listByUser(user)).toEqual([
      expect.objectContaining({
        identifier: 'demo-partner-7',
        redirectUrl: DEMO.connectRedirectUrl,
      }),
    ]);
  });

  it('answers 404 or 409 for starts that name nothing to connect', async () => {
    const mock = createServicePlatform({ endpointChecks: false });
    const start = (query: string) => mock.call('GET', `/__mock/connect/start?${query}`);
    const q = DEMO.quests.partnerConnect;
    expect((await start(`subdomain=nope&questId=${q}&userId=${user}`)).status).toBe(404);
    expect(
      (await start(`subdomain=demo&questId=${DEMO.sandbox.quest}&userId=${user}`)).status,
    ).toBe(404);
    expect(
      (await start(`subdomain=demo&questId=${q}&userId=${DEMO.sandbox.users.guest}`)).status,
    ).toBe(404);
    expect(
      (await start(`subdomain=demo&questId=${DEMO.quests.verifyEmail}&userId=${user}`)).status,
    ).toBe(409);
    expect((await start(`subdomain=demo&questId=${q}&userId=${user}&taskId=nope`)).status).toBe(
      409,
    );
    expect((await start(`subdomain=demo&questId=${q}`)).status).toBe(400);
    expect(
      (await start(`subdomain=demo&questId=${q}&userId=${user}&callbackParam=cb`)).status,
    ).toBe(400);
  });

  it('refuses a callback for an unknown community or member, or without identifier', async () => {
    const mock = createServicePlatform({ endpointChecks: false });
    const base = 'http://mock.test/__mock/connect/callback';
    const sign = async (query: string) =>
      new URL(await signUrl(`${base}?${query}`, DEMO.connectSecret)).search;
    const redirect = encodeURIComponent(DEMO.connectRedirectUrl);
    for (const query of [
      `subdomain=nope&userId=${user}&redirectUrl=${redirect}&identifier=x`,
      `subdomain=demo&userId=${DEMO.sandbox.users.guest}&redirectUrl=${redirect}&identifier=x`,
      `subdomain=demo&userId=${user}&redirectUrl=${redirect}`,
      `subdomain=demo&userId=${user}&redirectUrl=${redirect}&identifier=a&identifier=b`,
    ]) {
      const answer = await mock.call('GET', `/__mock/connect/callback${await sign(query)}`);
      expect(answer.status, query).toBe(400);
    }
    // Well signed, but never issued by a start: no nonce, or a nonce the mock does not know.
    for (const query of [
      `subdomain=demo&userId=${user}&redirectUrl=${redirect}&identifier=x`,
      `subdomain=demo&userId=${user}&redirectUrl=${redirect}&identifier=x&nonce=${'a'.repeat(32)}`,
    ]) {
      const answer = await mock.call('GET', `/__mock/connect/callback${await sign(query)}`);
      expect(answer.status, query).toBe(400);
    }
    expect(mock.platform.store.connections.listByUser(user)).toEqual([]);
  });
});

describe('connect callbacks: one-time, expiring, tied to the member, on the public URL', () => {
  const q = DEMO.quests.partnerConnect;

  /** Starts a flow and answers it as the community would, returning the callback's path. */
  async function answered(
    mock: ReturnType<typeof createServicePlatform>,
    userId: string,
    identifier: string,
  ) {
    const started = await mock.call(
      'GET',
      `/__mock/connect/start?subdomain=demo&questId=${q}&userId=${userId}`,
    );
    expect(started.status).toBe(302);
    const callback = new URL(started.headers.get('location')!).searchParams.get('callback')!;
    const answer = new URL(await buildConnectCallback(callback, identifier, DEMO.connectSecret));
    return { callback, path: `/__mock/connect/callback${answer.search}` };
  }

  it('refuses a replayed callback, and a removed association stays removed', async () => {
    const mock = createServicePlatform({ endpointChecks: false });
    const { path } = await answered(mock, user, 'partner-1');
    expect((await mock.call('GET', path)).status).toBe(200);
    mock.platform.store.connections.deleteByUser(user);
    expect(mock.platform.store.connections.listByUser(user)).toEqual([]);
    const replay = await mock.call('GET', path);
    expect(replay.status).toBe(400);
    expect(replay.text).toContain('already used');
    expect(mock.platform.store.connections.listByUser(user)).toEqual([]);
  });

  it('refuses a callback that comes back after 10 minutes on the mock clock', async () => {
    const mock = createServicePlatform({ endpointChecks: false });
    const { path } = await answered(mock, user, 'partner-2');
    mock.clock.advance(10 * 60 * 1000 + 1);
    const late = await mock.call('GET', path);
    expect(late.status).toBe(400);
    expect(late.text).toContain('expired');
    expect(mock.platform.store.connections.listByUser(user)).toEqual([]);
  });

  it('refuses a nonce carried over to another member', async () => {
    const mock = createServicePlatform({ endpointChecks: false });
    const { callback } = await answered(mock, user, 'partner-3');
    const other = DEMO.users.admin;
    const before = structuredClone(mock.platform.store.connections.listByUser(other));
    const moved = new URL(callback);
    moved.searchParams.set('userId', other);
    const answer = new URL(await buildConnectCallback(moved.href, 'partner-3', DEMO.connectSecret));
    const refused = await mock.call('GET', `/__mock/connect/callback${answer.search}`);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('belongs to another member');
    expect(mock.platform.store.connections.listByUser(other)).toEqual(before);
  });

  it('builds the callback on its configured public URL, whatever the Host header says', async () => {
    const mock = createServicePlatform({ endpointChecks: false, baseUrl: 'https://mock.example' });
    // A request that came in under another name (a rebinding page, a spoofed Host).
    const started = await mock.platform.fetch(
      new Request(
        `http://evil.example/__mock/connect/start?subdomain=demo&questId=${q}&userId=${user}`,
      ),
    );
    const callback = new URL(
      new URL(started.headers.get('location')!).searchParams.get('callback')!,
    );
    expect(callback.origin).toBe('https://mock.example');
  });
});

describe('community secrets', () => {
  it('reads the seeded secret, sets a given one and generates one', async () => {
    const mock = createServicePlatform({ endpointChecks: false });
    const read = await mock.call<{ secret: string }>('GET', '/__mock/communities/demo/secret');
    expect(read.body).toEqual({ subdomain: 'demo', secret: DEMO.connectSecret });

    const set = await mock.call('PUT', '/__mock/communities/demo/secret', {
      secret: 'rotated-secret-1',
    });
    expect(set.body).toEqual({ subdomain: 'demo', secret: 'rotated-secret-1' });
    expect((await mock.call('GET', '/__mock/communities/demo/secret')).body).toEqual({
      subdomain: 'demo',
      secret: 'rotated-secret-1',
    });

    const generated = await mock.call<{ secret: string }>('PUT', '/__mock/communities/demo/secret');
    expect(generated.body.secret).toMatch(/^[0-9a-f]{64}$/);
    const again = await mock.call<{ secret: string }>('PUT', '/__mock/communities/demo/secret', {});
    expect(again.body.secret).not.toBe(generated.body.secret);

    expect(
      (await mock.call('PUT', '/__mock/communities/demo/secret', { secret: '  ' })).status,
    ).toBe(400);
    expect((await mock.call('PUT', '/__mock/communities/demo/secret', { secret: 7 })).status).toBe(
      400,
    );
    expect((await mock.call('GET', '/__mock/communities/nope/secret')).status).toBe(404);
    expect((await mock.call('PUT', '/__mock/communities/nope/secret', {})).status).toBe(404);
  });

  it('signs with the current secret: a callback signed with the old one is refused', async () => {
    const mock = createServicePlatform({ endpointChecks: false });
    await mock.call('PUT', '/__mock/communities/demo/secret', { secret: 'new-secret' });
    const started = await mock.call(
      'GET',
      `/__mock/connect/start?subdomain=demo&questId=${DEMO.quests.partnerConnect}&userId=${user}`,
    );
    const location = started.headers.get('location')!;
    expect(await signUrl(location.replace(/[?&]signature=[0-9a-f]+$/, ''), 'new-secret')).toBe(
      location,
    );
    const callback = new URL(location).searchParams.get('callback')!;
    const old = new URL(await buildConnectCallback(callback, 'x', DEMO.connectSecret));
    expect((await mock.call('GET', `/__mock/connect/callback${old.search}`)).status).toBe(400);
    const fresh = new URL(await buildConnectCallback(callback, 'x', 'new-secret'));
    expect((await mock.call('GET', `/__mock/connect/callback${fresh.search}`)).status).toBe(200);
  });
});
