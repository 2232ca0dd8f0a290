import { describe, expect, it } from 'vitest';
import { createMockPlatform } from '../platform.js';
import { DEMO } from '../seed/demo-ids.js';

const platform = createMockPlatform({ seed: { users: 0 } });
const call = async (method: string, path: string, body?: unknown) => {
  const response = await platform.fetch(
    new Request(`http://127.0.0.1:4000${path}`, {
      method,
      headers: { 'x-api-key': DEMO.apiKeys.readWrite, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  return { status: response.status, body: (await response.json()) as { message: string } };
};

describe('a mistaken request to the mock says what it meant', () => {
  it('an unknown route near a known one: did you mean, with the path as typed', async () => {
    const quest = await call('GET', '/public/communities/demo/quest');
    expect(quest).toEqual({
      status: 404,
      body: {
        message:
          'No route for GET /public/communities/demo/quest (did you mean GET /public/communities/demo/quests?)',
      },
    });
    const claims = await call(
      'POST',
      `/__mock/communities/demo/quests/${DEMO.quests.verifyEmail}/claim`,
    );
    expect(claims.body.message).toContain(
      `(did you mean POST /__mock/communities/demo/quests/${DEMO.quests.verifyEmail}/claims?)`,
    );
    // The right path under another method names the methods it answers.
    expect((await call('PUT', '/__mock/clock')).body.message).toMatch(/\(this path answers GET/);
    // Nothing near: no guess.
    expect((await call('GET', '/nothing/here')).body.message).toBe(
      'No route for GET /nothing/here',
    );
  });

  it('a control body with a near field names it: user, did you mean userId', async () => {
    const claim = await call(
      'POST',
      `/__mock/communities/demo/quests/${DEMO.quests.verifyEmail}/claims`,
      { user: DEMO.users.admin },
    );
    expect(claim.status).toBe(400);
    expect(claim.body.message).toMatch(
      /missing field userId; unknown field user \(did you mean userId\?\)/,
    );
  });
});
