import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, PlatformError, RedirectError } from './index.js';

// The attack: the platform, a proxy or a wrong baseUrl answers with a redirect to another origin,
// where the attacker listens. Two loopback servers on different ports are two origins; the
// attacker's server records every request it gets, so "the key never left" is a count of zero.

const KEY = 'qk_live_redirect-attack-key-0123456789';
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.member-token.signature';
const TASK_KEY = 'task-endpoint-key-that-must-stay-home';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

interface Origin {
  url: string;
  seen: Seen[];
  /** What the next requests get: a path -> answer map, consulted by path without the query. */
  routes: Map<string, { status: number; headers?: Record<string, string>; body?: string }>;
  close(): Promise<void>;
}

async function origin(host = '127.0.0.1'): Promise<Origin> {
  const seen: Seen[] = [];
  const routes: Origin['routes'] = new Map();
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      seen.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body,
      });
      const route = routes.get((request.url ?? '').split('?')[0]!) ?? { status: 404 };
      response.writeHead(route.status, { 'content-type': 'application/json', ...route.headers });
      response.end(route.body ?? '{"message":"not here"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    routes,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const QUEST_BODY = {
  name: 'Verify',
  tasks: [
    {
      type: 'api',
      settings: { endpoint: 'https://community.example/verify', apiKey: TASK_KEY },
    },
  ],
};

let platform: Origin;
let attacker: Origin;
const client = () =>
  createClient({
    baseUrl: platform.url,
    subdomain: 'demo',
    apiKey: KEY,
    token: TOKEN,
    retry: false,
    validate: false,
  });
const prefix = '/public/communities/demo';

beforeAll(async () => {
  [platform, attacker] = await Promise.all([origin(), origin()]);
});
afterAll(() => Promise.all([platform.close(), attacker.close()]));

const everything = (seen: Seen[]) => JSON.stringify(seen);

describe('a redirect to another origin (the attacker listens there)', () => {
  for (const status of [301, 302, 303, 307, 308]) {
    it(`${status} on createQuest: no request reaches the other origin, a RedirectError names the target`, async () => {
      platform.seen.length = 0;
      attacker.seen.length = 0;
      const target = `${attacker.url}/steal?from=${status}`;
      platform.routes.set(`${prefix}/quests`, { status, headers: { location: target } });
      const error = await client()
        .createQuest({ body: QUEST_BODY as never })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RedirectError);
      expect(error).toBeInstanceOf(PlatformError);
      const redirect = error as RedirectError;
      expect(redirect.status).toBe(status);
      expect(redirect.location).toBe(target);
      expect(redirect.operationId).toBe('createQuest');
      expect(redirect.message).toContain(target);
      const shown = `${redirect.message} ${redirect.stack} ${JSON.stringify(redirect)}`;
      expect(shown).not.toContain(KEY);
      expect(shown).not.toContain(TOKEN);
      expect(shown).not.toContain(TASK_KEY);
      // The platform got the call once, with the key (its own origin); the attacker got nothing.
      expect(platform.seen).toHaveLength(1);
      expect(platform.seen[0]!.headers['x-api-key']).toBe(KEY);
      expect(attacker.seen).toEqual([]);
    });

    it(`${status} on getUser: the member token and the key stay home`, async () => {
      attacker.seen.length = 0;
      platform.routes.set(`${prefix}/users/u1`, {
        status,
        headers: { location: `${attacker.url}/users/u1` },
      });
      await expect(client().getUser({ userId: 'u1' })).rejects.toThrow(RedirectError);
      expect(attacker.seen).toEqual([]);
    });
  }

  it('a relative Location that leaves the origin (protocol-relative) is refused too', async () => {
    attacker.seen.length = 0;
    const host = new URL(attacker.url).host;
    platform.routes.set(`${prefix}/quests`, { status: 308, headers: { location: `//${host}/q` } });
    const error = await client()
      .createQuest({ body: QUEST_BODY as never })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RedirectError);
    expect((error as RedirectError).location).toBe(`${attacker.url}/q`);
    expect(attacker.seen).toEqual([]);
  });

  it('the same port under another host name is another origin', async () => {
    const sameServerOtherName = platform.url.replace('127.0.0.1', 'localhost');
    platform.seen.length = 0;
    platform.routes.set(`${prefix}/quests`, {
      status: 307,
      headers: { location: `${sameServerOtherName}${prefix}/quests` },
    });
    await expect(client().createQuest({ body: QUEST_BODY as never })).rejects.toThrow(
      RedirectError,
    );
    // One request only: the one to baseUrl's own origin, none under the other name.
    expect(platform.seen).toHaveLength(1);
  });
});

describe('a chain of redirects', () => {
  it('same-origin hops are followed with the key, and the chain stops at the first foreign hop', async () => {
    platform.seen.length = 0;
    attacker.seen.length = 0;
    platform.routes.set(`${prefix}/quests`, {
      status: 307,
      headers: { location: `${prefix}/hop1` },
    });
    platform.routes.set(`${prefix}/hop1`, {
      status: 308,
      headers: { location: `${platform.url}${prefix}/hop2` },
    });
    platform.routes.set(`${prefix}/hop2`, {
      status: 302,
      headers: { location: `${attacker.url}/collect` },
    });
    const error = await client()
      .createQuest({ body: QUEST_BODY as never })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RedirectError);
    expect((error as RedirectError).location).toBe(`${attacker.url}/collect`);
    expect(platform.seen.map((seen) => `${seen.method} ${seen.url}`)).toEqual([
      `POST ${prefix}/quests`,
      `POST ${prefix}/hop1`,
      `POST ${prefix}/hop2`,
    ]);
    // 307 and 308 keep the method and the body, as fetch does.
    expect(platform.seen.every((seen) => JSON.parse(seen.body).tasks[0].settings.apiKey)).toBe(
      true,
    );
    expect(everything(attacker.seen)).toBe('[]');
  });

  it('a same-origin chain ends where the answer is, as fetch would (303 turns the call into a GET)', async () => {
    platform.seen.length = 0;
    platform.routes.set(`${prefix}/quests`, {
      status: 303,
      headers: { location: `${prefix}/done` },
    });
    platform.routes.set(`${prefix}/done`, { status: 200, body: '{"id":"q1"}' });
    await expect(client().createQuest({ body: QUEST_BODY as never })).resolves.toEqual({
      id: 'q1',
    });
    expect(platform.seen.map((seen) => `${seen.method} ${seen.url} ${seen.body.length}`)).toEqual([
      `POST ${prefix}/quests ${JSON.stringify(QUEST_BODY).length}`,
      `GET ${prefix}/done 0`,
    ]);
    expect(platform.seen[1]!.headers['x-api-key']).toBe(KEY);
    expect(platform.seen[1]!.headers['content-type']).toBeUndefined();
  });

  it('a loop is cut after a bounded number of hops', async () => {
    platform.seen.length = 0;
    platform.routes.set(`${prefix}/quests`, {
      status: 302,
      headers: { location: `${prefix}/quests` },
    });
    const error = await client()
      .listQuests()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RedirectError);
    expect((error as RedirectError).message).toMatch(/too many redirects/);
    expect(platform.seen.length).toBeLessThanOrEqual(21);
  });
});
