import { describe, expect, it } from 'vitest';
import { DEMO } from '../seed/demo-ids.js';
import { createTestPlatform } from '../testkit.js';
import { createJsonCache, createPageCache, jsonArray } from './json-cache.js';
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
    const [context, other] = [{}, {}];
    const variant = { dependsOn: [context, other], reveal: true };
    expect(cache.text(a, variant, view(a))).toBe('{"n":1}');
    expect(cache.text(a, { dependsOn: [context, other], reveal: true }, view(a))).toBe('{"n":1}');
    expect(views).toBe(1);
    cache.text(a, { dependsOn: [context, other], reveal: false }, view(a));
    cache.text(a, { dependsOn: [{}, other], reveal: true }, view(a));
    cache.text(a, { dependsOn: [other, context], reveal: true }, view(a));
    cache.text(a, { dependsOn: [context], reveal: true }, view(a));
    cache.text(a, { dependsOn: [context, other, {}], reveal: true }, view(a));
    cache.text({ n: 1 }, variant, view(a));
    expect(views).toBe(7);
    expect(jsonArray(['1', '{"a":2}'])).toBe('[1,{"a":2}]');
    expect(jsonArray([])).toBe('[]');
  });
});

describe('createPageCache', () => {
  it('keeps a page while it holds the same records in the same order, per variant', () => {
    const cache = createPageCache<{ n: number }>();
    let builds = 0;
    const build = () => {
      builds += 1;
      return `page ${builds}`;
    };
    const [a, b] = [{ n: 1 }, { n: 2 }];
    const variant = { dependsOn: [], reveal: true };
    expect(cache.text([a, b], variant, build)).toBe('page 1');
    expect(cache.text([a, b], variant, build)).toBe('page 1');
    expect(cache.text([b, a], variant, build)).toBe('page 2');
    expect(cache.text([a, { n: 2 }], variant, build)).toBe('page 3');
    expect(cache.text([a], variant, build)).toBe('page 4');
    expect(cache.text([a, b], { dependsOn: [], reveal: false }, build)).toBe('page 5');
    expect(cache.text([a, b], { dependsOn: [{}], reveal: true }, build)).toBe('page 6');
    expect(cache.text([a, b], variant, build)).toBe('page 1');
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

  it('show a quest created, deleted from the page by a new one, or a claim counted', async () => {
    const { call, clock } = createTestPlatform();
    const ids = async () =>
      ((await call('GET', 'demo/quests?limit=100')).body as { id: string }[]).map((q) => q.id);
    const before = await ids();
    const created = await call('POST', 'demo/quests', {
      body: {
        categoryId: DEMO.modules.community,
        name: 'New on the page',
        published: true,
        recurrence: 'daily',
        conditionOperator: 'AND',
      },
    });
    const after = await ids();
    expect(after).toEqual([...before, (created.body as { id: string }).id]);
    // The hourly claimCounter refresh makes new records: the page follows.
    clock.advance(3_600_000);
    expect(await ids()).toEqual(after);
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

  it('show a member changed, an invite changed or added, and the new xp of an invitee', async () => {
    const { call, platform } = createTestPlatform();
    const { store } = platform;
    const admin = DEMO.users.admin;
    type Answer = { xp: number; invites: { userId: string; status: string; xp: number }[] };
    const byId = async () => (await call('GET', `demo/users/${admin}`)).body as Answer;
    const email = (store.users.get(admin)!.email ?? '').toUpperCase();
    const byEmail = async () =>
      (await call('GET', `demo/users?email=${encodeURIComponent(email)}`)).body as Answer;
    const both = async () => [await byId(), await byEmail()];
    for (const answer of await both()) expect(answer.invites.length).toBeGreaterThan(0);

    store.users.put({ ...store.users.get(admin)!, xp: 123_456 });
    for (const answer of await both()) expect(answer.xp).toBe(123_456);

    const [first] = store.invites.listByInviter(admin);
    store.invites.put({ ...first!, status: 'consumed' });
    for (const answer of await both()) {
      expect(answer.invites.find((invite) => invite.userId === first!.userId)?.status).toBe(
        'consumed',
      );
    }

    const invitee = store.users.get(first!.userId)!;
    store.users.put({ ...invitee, xp: 7_777 });
    for (const answer of await both()) {
      expect(answer.invites.find((invite) => invite.userId === invitee.id)?.xp).toBe(7_777);
    }

    const count = (await byId()).invites.length;
    const invited = new Set(store.invites.listByInviter(admin).map((invite) => invite.userId));
    const newcomer = Object.values(DEMO.users).find((id) => id !== admin && !invited.has(id))!;
    store.invites.put({ ...first!, userId: newcomer, status: 'active', questId: null });
    for (const answer of await both()) expect(answer.invites).toHaveLength(count + 1);
  });
});
