import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.js';
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

describe('the meetup example (Fastify)', () => {
  it('listens on a free loopback port', () => {
    expect(server.verifyUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/verify$/);
  });

  it('verifies a registration, whatever the case of the address', async () => {
    expect(await post(claim(DEFAULT_QUEST_IDS.registered, { email: 'Ben@Example.com' }))).toEqual({
      status: 200,
      body: { message: "You're registered for the community call. See you there!" },
    });
    const stranger = await post(claim(DEFAULT_QUEST_IDS.registered, { email: 'x@example.com' }));
    expect(stranger.status).toBe(400);
    expect(stranger.body.message).toContain('https://meetup.example/call');
  });

  it('verifies attendance of at least the minimum, and says what was missing', async () => {
    expect((await post(claim(DEFAULT_QUEST_IDS.attended, { discord: ADA }))).status).toBe(200);
    const short = await post(
      claim(DEFAULT_QUEST_IDS.attended, { discord: { id: '80351110224678913', handle: 'ben' } }),
    );
    expect(short).toEqual({
      status: 400,
      body: {
        message:
          'You were in the call for 5 minutes; the quest needs 15. Join the next one on Discord.',
      },
    });
    const absent = await post(
      claim(DEFAULT_QUEST_IDS.attended, { discord: { id: '1', handle: 'cleo' } }),
    );
    expect(absent.body.message).toMatch(/^We did not see cleo in the community call/);
  });

  it('asks for the account a quest needs', async () => {
    const registered = await post(claim(DEFAULT_QUEST_IDS.registered, { discord: ADA }));
    expect(registered.status).toBe(400);
    expect(registered.body.message).toMatch(/email/i);
    const attended = await post(claim(DEFAULT_QUEST_IDS.attended));
    expect(attended.status).toBe(400);
    expect(attended.body.message).toMatch(/discord/i);
  });

  it('refuses a claim with a wrong or missing key', async () => {
    const body = claim(DEFAULT_QUEST_IDS.attended, { discord: ADA });
    expect((await post(body, { 'x-api-key': 'not-the-key' })).status).toBe(400);
    expect((await post(body, {})).status).toBe(400);
  });

  it('answers an unknown quest, bad JSON and a GET with a 400 {message}', async () => {
    expect((await post(claim('another-quest', { discord: ADA }))).status).toBe(400);
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

  it('routes the quest ids it is given (checked with inject, no port)', async () => {
    const app = createApp({ apiKey: API_KEY, questIds: { attended: 'quest-call' } });
    const reply = await app.inject({
      method: 'POST',
      url: '/verify',
      headers: { 'x-api-key': API_KEY },
      payload: claim('quest-call', { discord: ADA }),
    });
    expect(reply.statusCode).toBe(200);
    await app.close();
  });

  it('refuses the same id for both quests at start-up', () => {
    expect(() =>
      createApp({ apiKey: API_KEY, questIds: { registered: 'q', attended: 'q' } }),
    ).toThrow(TypeError);
  });
});
