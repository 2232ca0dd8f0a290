import { describe, expect, it } from 'vitest';
import { DEMO } from '../seed/demo-ids.js';
import { createTestPlatform, expectError } from '../testkit.js';

const PATH = `demo/users/${DEMO.users.admin}/connect`;

describe('DELETE /users/{userId}/connect', () => {
  it('removes the association, after which there is none to remove', async () => {
    const t = createTestPlatform();
    const answer = await t.call('DELETE', PATH);
    expect([answer.status, answer.text]).toEqual([200, '']);
    expect(t.platform.store.connections.listByUser(DEMO.users.admin)).toEqual([]);
    expectError(await t.call('DELETE', PATH), 404, 'no connect association');
  });

  it('removes only the association of redirectUrl when given', async () => {
    const t = createTestPlatform();
    t.platform.store.connections.put({
      communityId: DEMO.communityId,
      userId: DEMO.users.admin,
      redirectUrl: 'https://other.example/connect',
      identifier: 'other-id',
      createdAt: '2025-01-01T00:00:00.000Z',
    });
    const url = encodeURIComponent('https://other.example/connect');
    expectError(
      await t.call('DELETE', `${PATH}?redirectUrl=${encodeURIComponent('https://none.example/')}`),
      404,
    );
    expect((await t.call('DELETE', `${PATH}?redirectUrl=${url}`)).status).toBe(200);
    expect(
      t.platform.store.connections.listByUser(DEMO.users.admin).map((c) => c.redirectUrl),
    ).toEqual([DEMO.connectRedirectUrl]);
    expectError(await t.call('DELETE', `${PATH}?redirectUrl=not-a-url`), 400, 'redirectUrl');
  });

  it('answers 400, 401, 403 and 404 where they apply', async () => {
    const t = createTestPlatform();
    expectError(await t.call('DELETE', 'demo/users/nope/connect'), 400, 'userId');
    expectError(await t.call('DELETE', PATH, { key: null }), 401);
    expectError(await t.call('DELETE', PATH, { key: DEMO.apiKeys.readOnly }), 403, 'read-only');
    const member = await t.platform.issueToken(DEMO.users.admin);
    expect((await t.call('DELETE', PATH, { token: member })).status).toBe(200);
    const guest = await t.platform.issueToken(DEMO.users.editor);
    expectError(
      await t.call('DELETE', `demo/users/${DEMO.users.editor}/connect`, { token: guest }),
      403,
    );
    expectError(
      await t.call('DELETE', 'demo/users/10000000-0000-4000-8000-0000000000ff/connect'),
      404,
    );
  });
});
