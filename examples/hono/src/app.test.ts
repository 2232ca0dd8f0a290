import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { createGuild } from './guild.js';
import { DEFAULT_QUEST_IDS } from './quests.js';
import { type RunningServer, startServer } from './server.js';

const API_KEY = 'example-test-key-0123';
const ADA = { id: '80351110224678912', handle: 'ada.lovelace' };

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

describe('the guild example (Hono)', () => {
  it('listens on a free loopback port', () => {
    expect(server.verifyUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/verify$/);
  });

  it('verifies a Discord member with a role', async () => {
    expect(await post(claim(DEFAULT_QUEST_IDS.discord, { discord: ADA }))).toEqual({
      status: 200,
      body: { message: 'Welcome to the guild, ada.lovelace! Quest complete.' },
    });
  });

  it('tells a member without a role, and one not on the server, what to do', async () => {
    const noRole = await post(
      claim(DEFAULT_QUEST_IDS.discord, { discord: { id: '80351110224678913', handle: 'ben' } }),
    );
    expect(noRole.status).toBe(400);
    expect(noRole.body.message).toMatch(/pick a role in #roles/);
    const stranger = await post(
      claim(DEFAULT_QUEST_IDS.discord, { discord: { id: '1', handle: 'stranger' } }),
    );
    expect(stranger.status).toBe(400);
    expect(stranger.body.message).toMatch(/^stranger has not joined our Discord server yet/);
  });

  it('verifies a pass holder, whatever the case of the address, and refuses others', async () => {
    const holder = await post(
      claim(DEFAULT_QUEST_IDS.pass, { wallet: '0x52908400098527886e0f7030069857d2e4169ee7' }),
    );
    expect(holder.status).toBe(200);
    const other = await post(claim(DEFAULT_QUEST_IDS.pass, { wallet: '0xabc' }));
    expect(other.status).toBe(400);
    expect(other.body.message).toContain('https://guild.example/pass');
  });

  it('asks for the account a quest needs', async () => {
    const discord = await post(claim(DEFAULT_QUEST_IDS.discord, { wallet: '0xabc' }));
    expect(discord.status).toBe(400);
    expect(discord.body.message).toMatch(/discord/i);
    const pass = await post(claim(DEFAULT_QUEST_IDS.pass, {}));
    expect(pass.status).toBe(400);
    expect(pass.body.message).toMatch(/wallet/i);
  });

  it('refuses a claim with a wrong or missing key', async () => {
    const body = claim(DEFAULT_QUEST_IDS.discord, { discord: ADA });
    expect((await post(body, { 'x-api-key': 'not-the-key' })).status).toBe(400);
    expect((await post(body, {})).status).toBe(400);
  });

  it('answers an unknown quest, bad JSON and a GET with a 400 {message}', async () => {
    expect((await post(claim('another-quest', { discord: ADA }))).status).toBe(400);
    const badJson = await fetch(server.verifyUrl, {
      method: 'POST',
      headers: { 'x-api-key': API_KEY },
      body: '{"userId":',
    });
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toEqual({ message: expect.any(String) });
    const get = await fetch(server.verifyUrl);
    expect(get.status).toBe(400);
    expect(await get.json()).toEqual({ message: expect.any(String) });
  });

  it('is a plain fetch handler too, with the quest ids it is given', async () => {
    const app = createApp({ apiKey: API_KEY, questIds: { pass: 'quest-pass' } });
    const response = await app.fetch(
      new Request('http://guild.example/verify', {
        method: 'POST',
        headers: { 'x-api-key': API_KEY },
        body: JSON.stringify(
          claim('quest-pass', { wallet: '0x52908400098527886E0F7030069857D2E4169EE7' }),
        ),
      }),
    );
    expect(response.status).toBe(200);
  });

  it('refuses the same id for both quests at start-up', () => {
    expect(() => createApp({ apiKey: API_KEY, questIds: { discord: 'q', pass: 'q' } })).toThrow(
      TypeError,
    );
  });
});

describe('webhooks', () => {
  const COMMUNITY = {
    id: 'c',
    name: 'Demo',
    subdomain: 'demo',
    blockchain: 'ethereum',
    discord: null,
    twitter: null,
    website: null,
  };
  const zoe = (discord: { id: string; handle: string } | null) => ({
    id: 'member-9',
    name: 'zoe',
    twitter: null,
    discord,
    email: 'zoe@example.com',
    addresses: {},
  });
  const QUEST = {
    id: 'quest-1',
    name: 'Join our Discord',
    categoryId: 'cat-1',
    categoryName: null,
    xp: 50,
    published: true,
    autoValidate: true,
    tasks: [{ id: 'task-1', type: 'api' }],
    lastReviewerId: null,
  };

  it('welcomes a member who joins, once per event, and refuses a wrong secret', async () => {
    const guild = createGuild();
    const app = createApp({ apiKey: API_KEY, guild, webhookSecret: 'whsec_guild_test' });
    const event = {
      id: 'evt-join-1',
      type: 'JOINED_COMMUNITY',
      time: 1_748_779_200_000,
      data: { community: COMMUNITY, user: zoe(null) },
    };
    const deliver = (secret: string) =>
      app.request('/webhooks', { method: 'POST', body: JSON.stringify({ ...event, secret }) });
    expect((await deliver('whsec_guild_test')).status).toBe(200);
    expect((await deliver('whsec_guild_test')).status).toBe(200);
    expect((await deliver('wrong')).status).toBe(401);
    expect(guild.welcomes()).toEqual([
      { userId: 'member-9', text: 'Welcome to the guild, zoe! Pick a role in #roles.' },
    ]);
  });

  it('credits a succeeded quest to the guild member found by data.user, once', async () => {
    const guild = createGuild();
    const app = createApp({ apiKey: API_KEY, guild, webhookSecret: 'whsec_guild_test' });
    const deliver = (id: string, discord: { id: string; handle: string } | null) =>
      app.request('/webhooks', {
        method: 'POST',
        body: JSON.stringify({
          id,
          type: 'QUEST_SUCCEEDED',
          time: 1_748_779_200_000,
          data: { community: COMMUNITY, user: zoe(discord), quest: QUEST },
          secret: 'whsec_guild_test',
        }),
      });
    expect((await deliver('evt-1', ADA)).status).toBe(200);
    expect((await deliver('evt-1', ADA)).status).toBe(200);
    // Not on the guild's server, or no Discord account: handled, nobody credited.
    expect((await deliver('evt-2', { id: '1', handle: 'stranger' })).status).toBe(200);
    expect((await deliver('evt-3', null)).status).toBe(200);
    expect(guild.credits()).toEqual([
      { discordId: ADA.id, questId: 'quest-1', text: '+50 guild points for "Join our Discord"' },
    ]);
  });
});
