import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from '@questkit/client';
import {
  createManualClock,
  createMockPlatform,
  DEMO,
  type MockServer,
  startMockServer,
} from '@questkit/mock-platform';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { INVITES_NEEDED } from './quests.js';

// "Invite 3 friends", end to end over real HTTP: the mock platform claims the quest, the shop
// reads the member's invites back from the mock's public API through @questkit/client.

const KEY = 'invites-task-key';
let mock: MockServer;
let shop: Server;
let app: Express | undefined;
let questId: string;

interface Claim {
  status: string;
  reason: string;
  message: string;
}

const claim = async (userId: string): Promise<Claim> => {
  const answer = await fetch(`${mock.url}/__mock/communities/demo/quests/${questId}/claims`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId }),
  });
  expect(answer.status).toBe(200);
  return (await answer.json()) as Claim;
};

const activeInvites = async (userId: string) => {
  const answer = await fetch(
    `${mock.url}/public/communities/demo/users/${userId}/invites?page=1&page_size=100&status=active`,
    { headers: { 'x-api-key': DEMO.apiKeys.readOnly } },
  );
  return ((await answer.json()) as unknown[]).length;
};

beforeAll(async () => {
  mock = await startMockServer(
    createMockPlatform({ clock: createManualClock(), rateLimit: false, endpointChecks: false }),
    { port: 0 },
  );
  // The shop listens first, so the quest can name its endpoint; its app comes with the quest id.
  shop = createServer((req, res) => {
    if (app) app(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  const verifyUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/verify`;
  const created = await fetch(`${mock.url}/public/communities/demo/quests`, {
    method: 'POST',
    headers: { 'x-api-key': DEMO.apiKeys.readWrite, 'content-type': 'application/json' },
    body: JSON.stringify({
      categoryId: DEMO.modules.community,
      name: 'Invite 3 friends',
      published: true,
      recurrence: 'once',
      conditionOperator: 'AND',
      tasks: [{ type: 'api', settings: { endpoint: verifyUrl, apiKey: KEY } }],
    }),
  });
  expect(created.status).toBe(200);
  questId = ((await created.json()) as { id: string }).id;
  app = createApp({
    apiKey: KEY,
    questIds: { invites: questId },
    // A read-only key is enough to read invites.
    platform: createClient({ baseUrl: mock.url, subdomain: 'demo', apiKey: DEMO.apiKeys.readOnly }),
  });
});
afterAll(async () => {
  shop?.closeAllConnections();
  await new Promise((resolve) => shop?.close(resolve));
  await mock?.close();
});

describe('the "invite 3 friends" quest', () => {
  it('is claimed by a member with enough active invites', async () => {
    expect(await activeInvites(DEMO.users.admin)).toBeGreaterThanOrEqual(INVITES_NEEDED);
    expect(await claim(DEMO.users.admin)).toMatchObject({
      status: 'success',
      message: 'Thanks for bringing your friends! Quest complete.',
    });
  });

  it('fails for a member without, saying how many are missing', async () => {
    expect(await activeInvites(DEMO.users.editor)).toBe(0);
    expect(await claim(DEMO.users.editor)).toMatchObject({
      status: 'failed',
      reason: 'not-verified',
      message: expect.stringContaining('You have 0 active invites: invite 3 more friends'),
    });
  });

  it('is refused at start-up without a platform client', () => {
    expect(() => createApp({ apiKey: KEY, questIds: { invites: questId } })).toThrow(
      /platform client/,
    );
  });
});
