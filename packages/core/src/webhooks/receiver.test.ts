import { describe, expect, it, vi } from 'vitest';
import type { DoorRequest } from '../adapter/door.js';
import { createMemoryDedupe } from './dedupe.js';
import { QUEST_SUCCEEDED } from './events.testkit.js';
import { createWebhookReceiver } from './receiver.js';

const SECRET = 'whsec_receiver_test';
const EVENT = QUEST_SUCCEEDED;

const delivery = (body: unknown, method = 'POST'): DoorRequest => ({
  method,
  url: '/webhooks',
  header: () => undefined,
  body: { kind: 'bytes', value: typeof body === 'string' ? body : JSON.stringify(body) },
});
const json = (answer: { body: string }) => JSON.parse(answer.body) as { message: string };

describe('createWebhookReceiver', () => {
  it('hands the typed event, without the secret, to its handler once, across retries', async () => {
    const seen: unknown[] = [];
    const receiver = createWebhookReceiver({
      secret: SECRET,
      on: { QUEST_SUCCEEDED: (event) => void seen.push(event) },
    });
    const first = await receiver.handle(delivery({ ...EVENT, secret: SECRET }), undefined);
    expect(first.status).toBe(200);
    const again = await receiver.handle(delivery({ ...EVENT, secret: SECRET }), undefined);
    expect(json(again).message).toBe('Already handled.');
    expect(seen).toEqual([EVENT]);
  });

  it('keeps keys it does not know, at the top, in data and inside its nested objects', async () => {
    const seen: unknown[] = [];
    const receiver = createWebhookReceiver({
      secret: SECRET,
      on: { QUEST_SUCCEEDED: (event) => void seen.push(event) },
    });
    const extended = {
      ...EVENT,
      region: 'eu',
      data: { ...EVENT.data, claimId: 'c-1', user: { ...EVENT.data.user, karma: 3 } },
    };
    const answer = await receiver.handle(delivery({ ...extended, secret: SECRET }), undefined);
    expect(answer.status).toBe(200);
    expect(seen).toEqual([extended]);
  });

  it('refuses an event with flat data (data.userId, no data.user) with 400 naming the field', async () => {
    const handler = vi.fn();
    const receiver = createWebhookReceiver({ secret: SECRET, on: { QUEST_SUCCEEDED: handler } });
    const flat = { ...EVENT, data: { userId: EVENT.data.user.id, questId: EVENT.data.quest.id } };
    const answer = await receiver.handle(delivery({ ...flat, secret: SECRET }), undefined);
    expect(answer.status).toBe(400);
    expect(json(answer).message).toMatch(
      /^The QUEST_SUCCEEDED event is malformed: data\.community/,
    );
    expect(handler).not.toHaveBeenCalled();
  });

  it('refuses an envelope without its time in milliseconds', async () => {
    const receiver = createWebhookReceiver({ secret: SECRET, on: {} });
    const { time: _time, ...old } = { ...EVENT, createdAt: '2025-06-01T12:00:00.000Z' };
    const answer = await receiver.handle(delivery({ ...old, secret: SECRET }), undefined);
    expect(answer.status).toBe(400);
    expect(json(answer).message).toMatch(/^The delivery is not an event: time/);
  });

  it('accepts every secret of a rotation and refuses any other with 401', async () => {
    const receiver = createWebhookReceiver({ secret: ['new-secret', SECRET], on: {} });
    expect((await receiver.handle(delivery({ ...EVENT, secret: SECRET }), undefined)).status).toBe(
      200,
    );
    expect(
      (await receiver.handle(delivery({ ...EVENT, id: 'evt-2', secret: 'new-secret' }), undefined))
        .status,
    ).toBe(200);
    expect(
      (await receiver.handle(delivery({ ...EVENT, id: 'evt-3', secret: 'old' }), undefined)).status,
    ).toBe(401);
    expect((await receiver.handle(delivery({ ...EVENT, id: 'evt-4' }), undefined)).status).toBe(
      401,
    );
  });

  it('answers malformed deliveries 400, naming the field, after the secret check', async () => {
    const receiver = createWebhookReceiver({ secret: SECRET, on: { QUEST_SUCCEEDED: () => {} } });
    expect((await receiver.handle(delivery('{not json'), undefined)).status).toBe(400);
    const noId = await receiver.handle(
      delivery({ ...EVENT, id: undefined, secret: SECRET }),
      undefined,
    );
    expect(noId.status).toBe(400);
    expect(json(noId).message).toMatch(/id/);
    const badData = await receiver.handle(
      delivery({
        ...EVENT,
        data: { ...EVENT.data, quest: { ...EVENT.data.quest, xp: 'many' } },
        secret: SECRET,
      }),
      undefined,
    );
    expect(badData.status).toBe(400);
    expect((await receiver.handle(delivery({ ...EVENT, secret: SECRET }), undefined)).status).toBe(
      200,
    );
    expect((await receiver.handle(delivery({}, 'GET'), undefined)).status).toBe(400);
  });

  it('answers 500 for a throwing handler without echoing its error, and lets it retry', async () => {
    const onError = vi.fn();
    let calls = 0;
    const receiver = createWebhookReceiver({
      secret: SECRET,
      on: {
        QUEST_SUCCEEDED: () => {
          calls++;
          if (calls === 1) throw new Error('connection string postgres://user:pw@db');
        },
      },
      onError,
    });
    const failed = await receiver.handle(delivery({ ...EVENT, secret: SECRET }), undefined);
    expect(failed.status).toBe(500);
    expect(failed.body).not.toContain('postgres');
    expect(onError).toHaveBeenCalledWith(expect.any(Error), {
      reason: 'handler_error',
      eventId: 'evt-1',
      eventType: 'QUEST_SUCCEEDED',
    });
    expect((await receiver.handle(delivery({ ...EVENT, secret: SECRET }), undefined)).status).toBe(
      200,
    );
  });

  it('answers 500 at its deadline and reports the late result, never written', async () => {
    const onError = vi.fn();
    let finish: () => void = () => {};
    const receiver = createWebhookReceiver({
      secret: SECRET,
      timeoutMs: 30,
      on: {
        QUEST_SUCCEEDED: () =>
          new Promise<void>((resolve) => {
            finish = resolve;
          }),
      },
      onError,
    });
    const answer = await receiver.handle(delivery({ ...EVENT, secret: SECRET }), undefined);
    expect(answer.status).toBe(500);
    finish();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(onError).toHaveBeenCalledWith(
      expect.any(Error),
      expect.objectContaining({ reason: 'late' }),
    );
    expect(JSON.stringify(onError.mock.calls)).not.toContain(SECRET);
  });

  it('accepts and ignores an unknown event type by default, or hands it to onUnknown', async () => {
    const unknown = { ...EVENT, type: 'BADGE_EARNED', data: { badge: 'gold' } };
    expect(
      (
        await createWebhookReceiver({ secret: SECRET, on: {} }).handle(
          delivery({ ...unknown, secret: SECRET }),
          undefined,
        )
      ).status,
    ).toBe(200);
    const onUnknown = vi.fn();
    await createWebhookReceiver({ secret: SECRET, on: {}, onUnknown }).handle(
      delivery({ ...unknown, secret: SECRET }),
      undefined,
    );
    expect(onUnknown).toHaveBeenCalledWith(unknown);
  });

  it('uses a shared dedupe store, asynchronous ones included', async () => {
    const memory = createMemoryDedupe();
    const dedupe = {
      claim: async (id: string, token: string) => memory.claim(id, token),
      done: async (id: string, token: string) => memory.done(id, token),
      release: async (id: string, token: string) => memory.release(id, token),
    };
    const calls = vi.fn();
    const a = createWebhookReceiver({ secret: SECRET, on: { QUEST_SUCCEEDED: calls }, dedupe });
    const b = createWebhookReceiver({ secret: SECRET, on: { QUEST_SUCCEEDED: calls }, dedupe });
    await a.handle(delivery({ ...EVENT, secret: SECRET }), undefined);
    const again = await b.handle(delivery({ ...EVENT, secret: SECRET }), undefined);
    expect(json(again).message).toBe('Already handled.');
    expect(calls).toHaveBeenCalledTimes(1);
  });

  it('runs the handler once for concurrent copies; the others get 409 until it is done', async () => {
    let finish: () => void = () => {};
    const calls = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          finish = resolve;
        }),
    );
    const receiver = createWebhookReceiver({ secret: SECRET, on: { QUEST_SUCCEEDED: calls } });
    const first = receiver.handle(delivery({ ...EVENT, secret: SECRET }), undefined);
    const copies = await Promise.all(
      [1, 2, 3, 4].map(() => receiver.handle(delivery({ ...EVENT, secret: SECRET }), undefined)),
    );
    expect(copies.map((answer) => answer.status)).toEqual([409, 409, 409, 409]);
    finish();
    expect((await first).status).toBe(200);
    const later = await receiver.handle(delivery({ ...EVENT, secret: SECRET }), undefined);
    expect(json(later).message).toBe('Already handled.');
    expect(calls).toHaveBeenCalledTimes(1);
  });

  it('keeps the claim of a handler past its deadline until it settles, then marks it done', async () => {
    let finish: () => void = () => {};
    const calls = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          finish = resolve;
        }),
    );
    const receiver = createWebhookReceiver({
      secret: SECRET,
      timeoutMs: 20,
      on: { QUEST_SUCCEEDED: calls },
      onError: () => {},
    });
    expect((await receiver.handle(delivery({ ...EVENT, secret: SECRET }), undefined)).status).toBe(
      500,
    );
    // The platform retries while the first run still works: no second run.
    expect((await receiver.handle(delivery({ ...EVENT, secret: SECRET }), undefined)).status).toBe(
      409,
    );
    finish();
    await new Promise((resolve) => setTimeout(resolve, 10));
    const after = await receiver.handle(delivery({ ...EVENT, secret: SECRET }), undefined);
    expect(json(after).message).toBe('Already handled.');
    expect(calls).toHaveBeenCalledTimes(1);
  });

  it('fails closed: a store that throws or never answers means 500, no run, onError told', async () => {
    const onError = vi.fn();
    const calls = vi.fn();
    const broken = createWebhookReceiver({
      secret: SECRET,
      on: { QUEST_SUCCEEDED: calls },
      onError,
      dedupe: {
        claim: () => Promise.reject(new Error('ECONNREFUSED redis://:pw@cache')),
        done: () => {},
        release: () => {},
      },
    });
    const refused = await broken.handle(delivery({ ...EVENT, secret: SECRET }), undefined);
    expect(refused.status).toBe(500);
    expect(refused.body).not.toContain('redis');
    expect(onError).toHaveBeenCalledWith(expect.any(Error), {
      reason: 'dedupe_error',
      eventId: 'evt-1',
      eventType: 'QUEST_SUCCEEDED',
    });
    const silent = createWebhookReceiver({
      secret: SECRET,
      timeoutMs: 20,
      on: { QUEST_SUCCEEDED: calls },
      onError,
      dedupe: { claim: () => new Promise<never>(() => {}), done: () => {}, release: () => {} },
    });
    expect((await silent.handle(delivery({ ...EVENT, secret: SECRET }), undefined)).status).toBe(
      500,
    );
    expect(calls).not.toHaveBeenCalled();
  });

  it('answers 200 for a handled event whose done mark failed, and reports it', async () => {
    const onError = vi.fn();
    const receiver = createWebhookReceiver({
      secret: SECRET,
      on: { QUEST_SUCCEEDED: () => {} },
      onError,
      dedupe: {
        claim: () => 'claimed',
        done: () => Promise.reject(new Error('READONLY')),
        release: () => {},
      },
    });
    expect((await receiver.handle(delivery({ ...EVENT, secret: SECRET }), undefined)).status).toBe(
      200,
    );
    expect(onError).toHaveBeenCalledWith(
      expect.any(Error),
      expect.objectContaining({ reason: 'dedupe_error' }),
    );
  });

  it('forgets the oldest ids past its size, and ids past their lifetime (memory default)', async () => {
    const dedupe = createMemoryDedupe({ maxIds: 2 });
    for (const id of ['a', 'b', 'c']) {
      expect(dedupe.claim(id, `t-${id}`)).toBe('claimed');
      dedupe.done(id, `t-${id}`);
    }
    // Read the kept ones first: a claim is a write and would push another id out.
    expect([dedupe.claim('c', 't'), dedupe.claim('b', 't'), dedupe.claim('a', 't')]).toEqual([
      'done',
      'done',
      'claimed',
    ]);
    const short = createMemoryDedupe({ claimTtlMs: 5, doneTtlMs: 5 });
    expect(short.claim('x', 't1')).toBe('claimed');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(short.claim('x', 't2')).toBe('claimed');
    expect(() => createMemoryDedupe({ maxIds: 0 })).toThrow(/maxIds/);
    expect(() => createMemoryDedupe({ doneTtlMs: -1 })).toThrow(/doneTtlMs/);
  });

  it('throws at start-up for a missing secret or a bad handler, naming the option', () => {
    expect(() => createWebhookReceiver({ secret: '', on: {} })).toThrow(
      /\[@questkit\/core\] webhooks: secret is required/,
    );
    expect(() => createWebhookReceiver({ secret: [], on: {} })).toThrow(/secret/);
    expect(() =>
      createWebhookReceiver({ secret: SECRET, on: { NOPE: () => {} } as never }),
    ).toThrow(/on\.NOPE/);
    expect(() => createWebhookReceiver({ secret: SECRET, on: {}, timeoutMs: 0 })).toThrow(
      /timeoutMs/,
    );
  });
});

describe('createWebhookReceiver: each refusal says why', () => {
  const handled = () =>
    createWebhookReceiver({ secret: SECRET, on: { QUEST_SUCCEEDED: () => {} } });
  const said = async (request: DoorRequest, receiver = handled()) => {
    const answer = await receiver.handle(request, undefined);
    return [answer.status, json(answer).message] as const;
  };

  it('refuses a secret that is not a string with 401, whatever its shape, and never runs a handler', async () => {
    const calls = vi.fn();
    const receiver = createWebhookReceiver({ secret: SECRET, on: { QUEST_SUCCEEDED: calls } });
    for (const secret of [123, { length: SECRET.length }, [SECRET], true, null]) {
      expect(await said(delivery({ ...EVENT, secret }), receiver), JSON.stringify(secret)).toEqual([
        401,
        'The webhook secret is missing or wrong.',
      ]);
    }
    expect(calls).not.toHaveBeenCalled();
  });

  it('says a delivery is too large, unreadable, not JSON or not POST', async () => {
    const small = createWebhookReceiver({ secret: SECRET, on: {}, maxBodyBytes: 100 });
    const large = delivery({ ...EVENT, secret: SECRET, padding: 'x'.repeat(200) });
    expect(await said(large, small)).toEqual([400, 'The delivery is too large.']);
    const broken: DoorRequest = {
      ...delivery({}),
      body: { kind: 'failed', reason: 'unreadable' },
    };
    expect(await said(broken)).toEqual([400, 'The delivery could not be read.']);
    expect(await said(delivery('{not json'))).toEqual([400, 'The delivery is not valid JSON.']);
    expect(await said(delivery({ ...EVENT, secret: SECRET }, 'GET'))).toEqual([
      400,
      'Webhook deliveries are POST requests.',
    ]);
    const noId = await said(delivery({ ...EVENT, id: undefined, secret: SECRET }));
    expect(noId[1]).toMatch(/^The delivery is not an event: id \S/);
  });

  it('reads a body the framework already parsed', async () => {
    const parsed: DoorRequest = {
      ...delivery({}),
      body: { kind: 'parsed', value: { ...EVENT, secret: SECRET } },
    };
    expect(await said(parsed)).toEqual([200, 'Handled.']);
  });

  it("says what went wrong on the receiver's side, and 409 to a copy in flight", async () => {
    const failing = createWebhookReceiver({
      secret: SECRET,
      on: {
        QUEST_SUCCEEDED: () => {
          throw new Error('boom');
        },
      },
      onError: () => {},
    });
    const request = () => delivery({ ...EVENT, secret: SECRET });
    expect(await said(request(), failing)).toEqual([500, 'The delivery could not be handled.']);
    const onError = vi.fn();
    const store = (claim: () => unknown) =>
      createWebhookReceiver({
        secret: SECRET,
        timeoutMs: 20,
        on: {},
        onError,
        dedupe: { claim: claim as never, done: () => {}, release: () => {} },
      });
    expect(
      await said(
        request(),
        store(() => Promise.reject(new Error('down'))),
      ),
    ).toEqual([500, 'The delivery could not be handled.']);
    expect(
      await said(
        request(),
        store(() => new Promise(() => {})),
      ),
    ).toEqual([500, 'The delivery could not be handled.']);
    expect(onError).toHaveBeenLastCalledWith(
      new Error('[@questkit/core] webhook dedupe store did not answer in time'),
      { reason: 'dedupe_error', eventId: 'evt-1', eventType: 'QUEST_SUCCEEDED' },
    );
    expect(
      await said(
        request(),
        store(() => 'busy'),
      ),
    ).toEqual([409, 'The event is being handled by another delivery; retry later.']);
    let finish: () => void = () => {};
    const slow = createWebhookReceiver({
      secret: SECRET,
      timeoutMs: 20,
      on: {
        QUEST_SUCCEEDED: () =>
          new Promise<void>((resolve) => {
            finish = resolve;
          }),
      },
      onError,
    });
    expect(await said(request(), slow)).toEqual([500, 'The delivery took too long to handle.']);
    finish();
    await vi.waitFor(() =>
      expect(onError).toHaveBeenLastCalledWith(
        new Error('[@questkit/core] webhook handler settled after the deadline'),
        { reason: 'late', eventId: 'evt-1', eventType: 'QUEST_SUCCEEDED' },
      ),
    );
  });

  it('gives back a claim that lands after its deadline, so that the retry runs', async () => {
    const memory = createMemoryDedupe();
    let land: () => void = () => {};
    const released: string[] = [];
    const receiver = createWebhookReceiver({
      secret: SECRET,
      timeoutMs: 20,
      on: { QUEST_SUCCEEDED: () => {} },
      onError: () => {},
      dedupe: {
        // The store answers only once the delivery has had its 500.
        claim: (id, token) =>
          new Promise((resolve) => {
            land = () => resolve(memory.claim(id, token));
          }),
        done: (id, token) => memory.done(id, token),
        release: (id, token) => {
          released.push(id);
          memory.release(id, token);
        },
      },
    });
    expect(await said(delivery({ ...EVENT, secret: SECRET }), receiver)).toEqual([
      500,
      'The delivery could not be handled.',
    ]);
    land();
    await vi.waitFor(() => expect(released).toEqual(['evt-1']));
    expect(memory.claim('evt-1', 'retry')).toBe('claimed');
  });

  it('releases the claim of a handler that fails after its deadline, and reports its error', async () => {
    const onError = vi.fn();
    let fail: (error: Error) => void = () => {};
    let calls = 0;
    const receiver = createWebhookReceiver({
      secret: SECRET,
      timeoutMs: 20,
      on: {
        QUEST_SUCCEEDED: () => {
          calls++;
          if (calls > 1) return;
          return new Promise<void>((_, reject) => {
            fail = reject;
          });
        },
      },
      onError,
    });
    const request = () => delivery({ ...EVENT, secret: SECRET });
    expect((await receiver.handle(request(), undefined)).status).toBe(500);
    const late = new Error('late failure');
    fail(late);
    await vi.waitFor(() =>
      expect(onError).toHaveBeenCalledWith(late, {
        reason: 'late',
        eventId: 'evt-1',
        eventType: 'QUEST_SUCCEEDED',
      }),
    );
    // Released, not marked done: the platform's retry runs the handler again.
    expect(await said(request(), receiver)).toEqual([200, 'Handled.']);
    expect(calls).toBe(2);
  });
});
