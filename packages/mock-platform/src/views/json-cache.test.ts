import { describe, expect, it } from 'vitest';
import { DEMO } from '../seed/demo-ids.js';
import { createTestPlatform } from '../testkit.js';
import { createJsonCache, jsonArray } from './json-cache.js';
import { MASKED_SECRET } from './webhooks.js';

// The list routes serve cached item texts: a change must show at once, each caller its variant.

describe('createJsonCache', () => {
  it('makes a text once per record and variant, and again for a new record or context', () => {
    const cache = createJsonCache<{ n: number }>();
    let views = 0;
    const view = (record: { n: number }) => () => {
      views += 1;
      return record;
    };
    const a = { n: 1 };
    const context = {};
    expect(cache.text(a, { context, reveal: true }, view(a))).toBe('{"n":1}');
    expect(cache.text(a, { context, reveal: true }, view(a))).toBe('{"n":1}');
    expect(views).toBe(1);
    cache.text(a, { context, reveal: false }, view(a));
    cache.text(a, { context: {}, reveal: true }, view(a));
    cache.text({ n: 1 }, { context, reveal: true }, view(a));
    expect(views).toBe(4);
    expect(jsonArray(['1', '{"a":2}'])).toBe('[1,{"a":2}]');
    expect(jsonArray([])).toBe('[]');
  });
});

describe('the lists over the cache', () => {
  it('show a change at once, and secrets only to read-write callers, whoever asked first', async () => {
    const { call } = createTestPlatform();
    const list = async (key: string) =>
      (await call('GET', 'demo/webhooks?limit=100', { key })).body as {
        items: { id: string; name: string; secret: string }[];
      };
    const masked = await list(DEMO.apiKeys.readOnly);
    expect(masked.items.every((hook) => hook.secret === MASKED_SECRET)).toBe(true);
    const revealed = await list(DEMO.apiKeys.readWrite);
    expect(revealed.items.every((hook) => hook.secret.startsWith('whsec_'))).toBe(true);
    const id = DEMO.webhooks.joined;
    expect((await call('PATCH', `demo/webhooks/${id}`, { body: { name: 'Renamed' } })).status).toBe(
      200,
    );
    for (const key of [DEMO.apiKeys.readOnly, DEMO.apiKeys.readWrite]) {
      expect((await list(key)).items.find((hook) => hook.id === id)?.name).toBe('Renamed');
    }
  });

  it('show a quest created or a community renamed since the last page', async () => {
    const { call, platform } = createTestPlatform();
    const names = async () =>
      ((await call('GET', 'demo/quests?limit=100')).body as { communityName: string }[]).map(
        (quest) => quest.communityName,
      );
    const before = await names();
    const community = platform.store.communities.getBySubdomain('demo')!;
    platform.store.communities.put({ ...community, name: 'Renamed community' });
    const after = await names();
    expect(after).toHaveLength(before.length);
    expect(new Set(after)).toEqual(new Set(['Renamed community']));
  });
});
