import { CommunitySchema, ModuleListSchema } from '@questkit/core/api';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../seed/demo-ids.js';
import { createTestPlatform, expectError, expectShape } from '../testkit.js';

describe('GET /public/communities/{subdomain}', () => {
  it('answers the community with exactly the fields of the contract', async () => {
    const { call } = createTestPlatform();
    const answer = await call('GET', 'demo', { key: DEMO.apiKeys.readOnly });
    expect(answer.status).toBe(200);
    const community = expectShape(CommunitySchema, answer.body);
    expect(Object.keys(answer.body as object).sort()).toEqual(
      [
        'name',
        'subdomain',
        'id',
        'image',
        'description',
        'sector',
        'blockchain',
        'type',
        'totalMembers',
      ].sort(),
    );
    expect(community).toMatchObject({ subdomain: 'demo', id: DEMO.communityId });
    // 100 generated + 10 named members, one of them deleted.
    expect(community.totalMembers).toBe(109);
  });

  it('answers any community to any valid key, nulls included', async () => {
    const { call } = createTestPlatform();
    const answer = await call('GET', 'sandbox', { key: DEMO.apiKeys.readOnly });
    expect(answer.status).toBe(200);
    expect(expectShape(CommunitySchema, answer.body)).toMatchObject({
      image: null,
      sector: null,
      totalMembers: 2,
    });
  });

  it('needs x-api-key: none, a wrong one or only a member token is a 401', async () => {
    const { call, platform } = createTestPlatform();
    expectError(await call('GET', 'demo', { key: null }), 401, 'x-api-key');
    expectError(await call('GET', 'demo', { key: 'qk_wrong' }), 401);
    const token = await platform.issueToken(DEMO.users.admin);
    expectError(await call('GET', 'demo', { token }), 401, 'x-api-key');
  });

  it('answers 404 for an unknown community', async () => {
    const { call } = createTestPlatform();
    expectError(await call('GET', 'nowhere'), 404, 'nowhere');
  });
});

describe('GET /modules', () => {
  it('lists the modules by position', async () => {
    const { call } = createTestPlatform();
    const answer = await call('GET', 'demo/modules', { key: DEMO.apiKeys.readOnly });
    const modules = expectShape(ModuleListSchema, answer.body);
    expect(modules.map((m) => m.id)).toEqual([
      DEMO.modules.onboarding,
      DEMO.modules.community,
      DEMO.modules.partners,
    ]);
    expect(modules.map((m) => m.position)).toEqual([0, 1, 2]);
    expect(modules[2]).toMatchObject({ description: null, color: null, coverUrl: null });
    for (const module of modules) {
      expect(Object.keys(module).sort()).toEqual([
        'color',
        'coverUrl',
        'description',
        'id',
        'name',
        'position',
      ]);
    }
  });

  it('refuses another community’s key (403), no key (401), an unknown community (404)', async () => {
    const { call } = createTestPlatform();
    expectError(
      await call('GET', 'demo/modules', { key: DEMO.sandbox.apiKey }),
      403,
      'another community',
    );
    expectError(await call('GET', 'demo/modules', { key: null }), 401);
    expectError(await call('GET', 'nowhere/modules'), 404);
  });
});
