import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { createClient } from '@questkit/client';
import {
  createManualClock,
  createMockPlatform,
  DEMO,
  type MockServer,
  startMockServer,
} from '@questkit/mock-platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.js';

// "Reach level N", end to end over real HTTP: the mock platform claims the quest, the guild
// reads the member back from the mock's public API through @questkit/client (getUser).

const KEY = 'level-task-key';
let mock: MockServer;
let guild: Server;
let listener: ReturnType<typeof getRequestListener> | undefined;
let questId: string;

const claim = async (userId: string) => {
  const answer = await fetch(`${mock.url}/__mock/communities/demo/quests/${questId}/claims`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId }),
  });
  expect(answer.status).toBe(200);
  return (await answer.json()) as { status: string; reason: string; message: string };
};

beforeAll(async () => {
  mock = await startMockServer(
    createMockPlatform({ clock: createManualClock(), rateLimit: false, endpointChecks: false }),
    { port: 0 },
  );
  // The guild listens first, so the quest can name its endpoint; its app comes with the quest id.
  guild = createServer((req, res) => {
    if (listener) void listener(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => guild.listen(0, '127.0.0.1', resolve));
  const verifyUrl = `http://127.0.0.1:${(guild.address() as AddressInfo).port}/verify`;
  const created = await fetch(`${mock.url}/public/communities/demo/quests`, {
    method: 'POST',
    headers: { 'x-api-key': DEMO.apiKeys.readWrite, 'content-type': 'application/json' },
    body: JSON.stringify({
      categoryId: DEMO.modules.community,
      name: 'Reach level 10',
      published: true,
      recurrence: 'once',
      conditionOperator: 'AND',
      tasks: [{ type: 'api', settings: { endpoint: verifyUrl, apiKey: KEY } }],
    }),
  });
  expect(created.status).toBe(200);
  questId = ((await created.json()) as { id: string }).id;
  const app = createApp({
    apiKey: KEY,
    questIds: { level: questId },
    levelNeeded: 10,
    platform: createClient({ baseUrl: mock.url, subdomain: 'demo', apiKey: DEMO.apiKeys.readOnly }),
  });
  listener = getRequestListener(app.fetch);
});
afterAll(async () => {
  guild?.closeAllConnections();
  await new Promise((resolve) => guild?.close(resolve));
  await mock?.close();
});

describe('the "reach level N" quest', () => {
  it('is claimed by a member at or past the level (ada, 12,500 xp: level 16)', async () => {
    expect(await claim(DEMO.users.admin)).toMatchObject({
      status: 'success',
      message: 'Level 16: you made it to level 10! Quest complete.',
    });
  });

  it('fails for a member below it, saying their level', async () => {
    const result = await claim(DEMO.users.guest);
    expect(result).toMatchObject({ status: 'failed', reason: 'not-verified' });
    expect(result.message).toMatch(/^You are level \d+: earn more xp .* to reach level 10/);
  });

  it('is refused at start-up without a platform client', () => {
    expect(() => createApp({ apiKey: KEY, questIds: { level: questId } })).toThrow(
      /platform client/,
    );
  });
});
