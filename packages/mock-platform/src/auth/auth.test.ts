import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../seed/demo-ids.js';
import { createTestPlatform, expectError } from '../testkit.js';

const USER = `demo/users/${DEMO.users.editor}`;

describe('authentication', () => {
  it('answers 401 without a credential, with a malformed or forged token', async () => {
    const { call } = createTestPlatform();
    expectError(await call('GET', USER, { key: null }), 401, 'Missing credentials');
    expectError(
      await call('GET', USER, { key: null, headers: { authorization: 'Basic abc' } }),
      401,
      'Bearer',
    );
    expectError(await call('GET', USER, { token: 'not-a-jwt' }), 401, 'not valid');
    const forged = await new SignJWT({ cid: DEMO.communityId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(DEMO.users.admin)
      .setIssuer('questkit-mock-platform')
      .setAudience('questkit-public-api')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('a-secret-the-mock-does-not-have'));
    expectError(await call('GET', USER, { token: forged }), 401, 'not valid');
  });

  it('refuses an API key sent as a bearer token with a message that names x-api-key', async () => {
    const { call } = createTestPlatform();
    const bearer = { key: null, headers: { authorization: `Bearer ${DEMO.apiKeys.readWrite}` } };
    // A route that takes a member token too, and one that reads the API key only.
    const user = await call('GET', USER, bearer);
    expectError(user, 401, 'x-api-key');
    expect(user.text).toMatch(/an API key goes in the x-api-key header, not in authorization/);
    expect(user.text).not.toContain(DEMO.apiKeys.readWrite);
    const community = await call('GET', 'demo', bearer);
    expectError(community, 401, 'x-api-key header only, not from authorization');
  });

  it('accepts a member token until it expires on the platform clock', async () => {
    const { call, clock, platform } = createTestPlatform({ tokenTtlSeconds: 60 });
    const token = await platform.issueToken(DEMO.users.admin);
    expect((await call('GET', USER, { token })).status).toBe(200);
    clock.advance(61_000);
    expectError(await call('GET', USER, { token }), 401, 'expired');
  });

  it('accepts tokens issued by POST /__mock/tokens', async () => {
    const { call } = createTestPlatform();
    const issued = await call('POST', '/__mock/tokens', {
      key: null,
      body: { userId: DEMO.users.admin },
    });
    expect(issued.status).toBe(200);
    const { token, communityId, expiresAt } = issued.body as {
      token: string;
      communityId: string;
      expiresAt: string;
    };
    expect(communityId).toBe(DEMO.communityId);
    expect(expiresAt).toBe('2025-06-02T12:00:00.000Z');
    expect((await call('GET', USER, { token })).status).toBe(200);
    expectError(
      await call('POST', '/__mock/tokens', { key: null, body: { userId: 'x' } }),
      400,
      'userId',
    );
    expectError(
      await call('POST', '/__mock/tokens', {
        key: null,
        body: { userId: '10000000-0000-4000-8000-0000000000ff' },
      }),
      404,
    );
  });

  it('prefers x-api-key when both credentials are sent', async () => {
    const { call, platform } = createTestPlatform();
    const token = await platform.issueToken(DEMO.users.admin);
    expectError(await call('GET', USER, { key: 'qk_wrong', token }), 401, 'x-api-key');
  });
});

describe('authorization', () => {
  it('answers 403 to a credential of another community', async () => {
    const { call, platform } = createTestPlatform();
    expectError(await call('GET', USER, { key: DEMO.sandbox.apiKey }), 403, 'another community');
    const token = await platform.issueToken(DEMO.sandbox.users.admin);
    expectError(await call('GET', USER, { token }), 403, 'another community');
  });

  it('lets a member without the admin role read only themselves', async () => {
    const { call, platform } = createTestPlatform();
    const token = await platform.issueToken(DEMO.users.editor);
    expect((await call('GET', USER, { token })).status).toBe(200);
    expect(
      (await call('GET', `demo/users/${DEMO.users.editor}/invites?page=1`, { token })).status,
    ).toBe(200);
    expect((await call('GET', `demo/reviews/users/${DEMO.users.editor}`, { token })).status).toBe(
      200,
    );
    expectError(await call('GET', `demo/users/${DEMO.users.admin}`, { token }), 403, 'admin role');
    expectError(
      await call('GET', 'demo/users?email=ada@example.com', { token }),
      403,
      'admin role',
    );
    expectError(await call('GET', 'demo/quests', { token }), 403, 'admin role');
    expectError(await call('GET', 'demo/webhooks', { token }), 403, 'admin role');
    // Event types are readable by any member.
    expect((await call('GET', 'demo/webhooks-event-types', { token })).status).toBe(200);
  });

  it('refuses banned and deleted members everywhere', async () => {
    const { call, platform } = createTestPlatform();
    const banned = await platform.issueToken(DEMO.users.banned);
    expectError(
      await call('GET', `demo/users/${DEMO.users.banned}`, { token: banned }),
      403,
      'banned',
    );
    const deleted = await platform.issueToken(DEMO.users.deleted);
    expectError(
      await call('GET', `demo/users/${DEMO.users.deleted}`, { token: deleted }),
      403,
      'deleted',
    );
  });

  it('refuses writes with a read-only key, allows them to an admin token', async () => {
    const { call, platform } = createTestPlatform();
    const body = { name: 'n', uri: 'http://127.0.0.1:9/hook', active: true };
    expectError(
      await call('POST', 'demo/webhooks', { key: DEMO.apiKeys.readOnly, body }),
      403,
      'read-only',
    );
    const token = await platform.issueToken(DEMO.users.admin);
    expect((await call('POST', 'demo/webhooks', { token, body })).status).toBe(200);
  });

  it('throws a TypeError when issuing a token for an unknown user', async () => {
    const { platform } = createTestPlatform();
    await expect(platform.issueToken('10000000-0000-4000-8000-0000000000ff')).rejects.toThrow(
      TypeError,
    );
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After past the burst, per credential, and refills with the clock', async () => {
    const { call, clock } = createTestPlatform({ rateLimit: { perSecond: 5 } });
    for (let n = 0; n < 5; n++) expect((await call('GET', 'demo/modules')).status).toBe(200);
    const limited = await call('GET', 'demo/modules');
    expectError(limited, 429, 'retry after');
    expect(limited.headers.get('retry-after')).toBe('1');
    // Another key has its own bucket.
    expect((await call('GET', 'demo/modules', { key: DEMO.apiKeys.readOnly })).status).toBe(200);
    clock.advance(200);
    expect((await call('GET', 'demo/modules')).status).toBe(200);
    expect((await call('GET', 'demo/modules')).status).toBe(429);
    clock.advance(1_000);
    for (let n = 0; n < 5; n++) expect((await call('GET', 'demo/modules')).status).toBe(200);
  });

  it('says how long to wait when the rate is slow', async () => {
    const { call } = createTestPlatform({ rateLimit: { perSecond: 0.25, burst: 1 } });
    expect((await call('GET', 'demo/modules')).status).toBe(200);
    expect((await call('GET', 'demo/modules')).headers.get('retry-after')).toBe('4');
  });

  it('defaults to 50 requests per second per credential', async () => {
    const { call } = createTestPlatform({ rateLimit: undefined });
    const statuses: number[] = [];
    for (let n = 0; n < 51; n++)
      statuses.push((await call('GET', 'demo/webhooks-event-types')).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(50);
    expect(statuses[50]).toBe(429);
  });

  it('can be turned off', async () => {
    const { call } = createTestPlatform({ rateLimit: false });
    for (let n = 0; n < 120; n++)
      expect((await call('GET', 'demo/webhooks-event-types')).status).toBe(200);
  });

  it('refuses a bad configuration at start-up', () => {
    expect(() => createTestPlatform({ rateLimit: { perSecond: 0 } })).toThrow(TypeError);
    expect(() => createTestPlatform({ rateLimit: { perSecond: 5, burst: 0 } })).toThrow(TypeError);
  });
});

describe('errors outside the routes', () => {
  it('answers 404 {message} for an unknown path or method', async () => {
    const { call } = createTestPlatform();
    expectError(await call('GET', '/public/nothing'), 404, 'No route');
    expectError(await call('PUT', 'demo/webhooks'), 404, 'No route');
  });
});
