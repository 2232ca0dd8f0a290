import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_QUEST_IDS } from './quests.js';
import { type RunningServer, startServer } from './server.js';

const API_KEY = 'example-test-key-0123';
const ADA_WALLET = '0x52908400098527886E0F7030069857D2E4169EE7';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ apiKey: API_KEY, port: 0 });
});
afterAll(() => server.close());

function claim(questId: string, accounts?: Record<string, unknown>) {
  return {
    userId: 'member-1',
    communityId: 'community-1',
    subdomain: 'demo',
    questId,
    requestId: 'request-1',
    ...(accounts ? { accounts } : {}),
  };
}

async function post(body: unknown, headers: Record<string, string> = { 'x-api-key': API_KEY }) {
  const response = await fetch(server.verifyUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { message: string } };
}

describe('the shop example (Express)', () => {
  it('listens on a free loopback port', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.verifyUrl).toBe(`${server.url}/verify`);
  });

  it('verifies a newsletter subscriber, whatever the case of the address', async () => {
    const reply = await post(claim(DEFAULT_QUEST_IDS.newsletter, { email: 'Ada@Example.com' }));
    expect(reply).toEqual({
      status: 200,
      body: { message: 'Thanks for reading our newsletter! Quest complete.' },
    });
  });

  it('tells a member who has not subscribed what to do', async () => {
    const reply = await post(claim(DEFAULT_QUEST_IDS.newsletter, { email: 'ben@example.com' }));
    expect(reply.status).toBe(400);
    expect(reply.body.message).toContain('https://shop.example/newsletter');
  });

  it('verifies a purchase paid from the wallet, and refuses a wallet without order', async () => {
    const bought = await post(
      claim(DEFAULT_QUEST_IDS.purchase, { wallet: ADA_WALLET.toLowerCase() }),
    );
    expect(bought).toEqual({
      status: 200,
      body: { message: 'Thanks for your order of Community hoodie! Quest complete.' },
    });
    const none = await post(claim(DEFAULT_QUEST_IDS.purchase, { wallet: '0x1234' }));
    expect(none.status).toBe(400);
    expect(none.body.message).toMatch(/no order paid from your wallet/);
  });

  it('asks for the account a quest needs', async () => {
    const newsletter = await post(claim(DEFAULT_QUEST_IDS.newsletter, { wallet: ADA_WALLET }));
    expect(newsletter.status).toBe(400);
    expect(newsletter.body.message).toMatch(/email/i);
    const purchase = await post(claim(DEFAULT_QUEST_IDS.purchase));
    expect(purchase.status).toBe(400);
    expect(purchase.body.message).toMatch(/wallet/i);
  });

  it('refuses a claim with a wrong or missing key before looking at it', async () => {
    const body = claim(DEFAULT_QUEST_IDS.newsletter, { email: 'ada@example.com' });
    expect((await post(body, { 'x-api-key': 'not-the-key' })).status).toBe(400);
    expect((await post(body, {})).status).toBe(400);
  });

  it('answers a quest it does not know, bad JSON and a GET with a 400 {message}', async () => {
    expect((await post(claim('another-quest', { email: 'ada@example.com' }))).status).toBe(400);
    const badJson = await fetch(server.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
      body: '{"userId":',
    });
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toEqual({ message: expect.any(String) });
    const get = await fetch(server.verifyUrl);
    expect(get.status).toBe(400);
    expect(await get.json()).toEqual({ message: expect.any(String) });
  });

  it('routes the quest ids it is given', async () => {
    const custom = await startServer({
      apiKey: API_KEY,
      port: 0,
      questIds: { newsletter: 'quest-news' },
    });
    try {
      const reply = await fetch(custom.verifyUrl, {
        method: 'POST',
        headers: { 'x-api-key': API_KEY },
        body: JSON.stringify(claim('quest-news', { email: 'gus@example.com' })),
      });
      expect(reply.status).toBe(200);
    } finally {
      await custom.close();
    }
  });

  it('refuses the same id for both quests at start-up', async () => {
    await expect(() =>
      startServer({ apiKey: API_KEY, port: 0, questIds: { newsletter: 'q', purchase: 'q' } }),
    ).rejects.toThrow(TypeError);
  });
});
