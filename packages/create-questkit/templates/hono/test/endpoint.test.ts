import { assertConformant } from '@questkit/conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUIRES } from '../src/quest.js';
import { TEST_ENV } from './env.js';
import { startApp } from './start.js';

let app: Awaited<ReturnType<typeof startApp>>;
beforeAll(async () => {
  app = await startApp(TEST_ENV);
});
afterAll(() => app?.close());

// The accounts of a member who did the quest (ada) and of one who did not (ben), by identification
// method: a claim carries those REQUIRES names, as the platform sends them.
const ADA = {
  email: 'ada@example.com',
  wallet: '0x52908400098527886e0f7030069857d2e4169ee7',
  discord: { id: '80351110224678912', handle: 'ada' },
  twitter: { id: '2244994945', username: 'ada' },
  'svc-connect': 'member-1',
};
const BEN = {
  email: 'ben@example.com',
  wallet: '0x0000000000000000000000000000000000000001',
  discord: { id: '1', handle: 'ben' },
  twitter: { id: '1', username: 'ben' },
  'svc-connect': 'member-2',
};

const claim = (member: typeof ADA, userId = 'member-1') => ({
  userId,
  communityId: 'community-1',
  subdomain: 'demo',
  questId: 'quest-1',
  requestId: 'request-1',
  accounts: Object.fromEntries(REQUIRES.map((method) => [method, member[method]])),
});

const post = async (body: unknown, key = TEST_ENV.QUEST_API_KEY!) => {
  const answer = await fetch(`${app.origin}/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as { message: string } };
};

describe('the verification endpoint', () => {
  it("passes the platform's checks, judged by questkit's conformance battery", async () => {
    await assertConformant(`${app.origin}/verify`, {
      apiKey: TEST_ENV.QUEST_API_KEY!,
      identifications: [...REQUIRES],
      connect: { url: `${app.origin}/connect`, secret: TEST_ENV.CONNECT_SECRET! }, // @connect
      timeoutMs: 5_000,
      burst: 4,
      samples: 4,
    });
  });

  it('completes the quest for a member who did it, and tells another what to do', async () => {
    const done = await post(claim(ADA));
    expect(done).toEqual({ status: 200, body: { message: 'Thanks! Quest complete.' } });
    const other = await post(claim(BEN, 'member-2'));
    expect(other.status).toBe(400);
    expect(other.body.message).toMatch(/claim again/);
  });

  it('refuses a claim with a wrong key', async () => {
    const refused = await post(claim(ADA), 'not-the-key');
    expect(refused.status).toBe(400);
  });
});

describe('safe as written', () => {
  it('listens on the loopback interface', () => {
    expect(new URL(app.origin).hostname).toBe('127.0.0.1');
  });

  it('refuses to start without QUEST_API_KEY', async () => {
    await expect(startApp({ ...TEST_ENV, QUEST_API_KEY: '' })).rejects.toThrow(/QUEST_API_KEY/);
  });
});
