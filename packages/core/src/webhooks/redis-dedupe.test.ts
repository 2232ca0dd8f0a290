import { describe, expect, it } from 'vitest';
import { createRedisDedupe } from './redis-dedupe.js';

// Survivor of the fifth round's hand mutations: the claim taking a reply it does not know as
// "claimed" (fail open: the handler would run with no guard) was caught by no test. A client
// that answers anything else (a proxy, a Redis-like server, a client wrapper that maps replies)
// must fail the claim, so that the receiver answers 500 and the platform retries.

/** A node-redis-shaped client that answers every command with `reply`, and records them. */
function clientReplying(reply: unknown) {
  const sent: string[][] = [];
  return {
    sent,
    client: {
      sendCommand: async (args: string[]) => {
        sent.push(args);
        return reply;
      },
    },
  };
}

describe('createRedisDedupe: the claim reply', () => {
  it.each([
    ['claimed', 'claimed'],
    ['done', 'done'],
    ['busy', 'busy'],
  ] as const)('reads %s as %s, as text or as bytes', async (reply, expected) => {
    expect(await createRedisDedupe(clientReplying(reply).client).claim('evt-1', 't')).toBe(
      expected,
    );
    const bytes = new TextEncoder().encode(reply);
    expect(await createRedisDedupe(clientReplying(bytes).client).claim('evt-1', 't')).toBe(
      expected,
    );
  });

  it.each([
    ['OK', 'OK'],
    ['null', null],
    ['undefined', undefined],
    ['1', 1],
    ['CLAIMED', 'CLAIMED'],
    ['an array', ['claimed']],
    ['an object', { claimed: true }],
    ['bytes of another word', new TextEncoder().encode('free')],
  ])('fails closed on %s', async (_name, reply) => {
    await expect(
      createRedisDedupe(clientReplying(reply).client).claim('evt-1', 't'),
    ).rejects.toThrow(/unexpected Redis reply to a dedupe claim/);
  });

  it('claims atomically with SET NX PX under the prefix, with the claim lifetime', async () => {
    const { client, sent } = clientReplying('claimed');
    await createRedisDedupe(client, { prefix: 'p:', claimTtlMs: 1234 }).claim('evt-9', 'tok');
    const [command, script, keys, key, token, ttl] = sent[0]!;
    expect([command, keys, key, token, ttl]).toEqual(['EVAL', '1', 'p:evt-9', 'tok', '1234']);
    expect(script).toContain("'SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]");
  });

  it('marks done with the done lifetime, and releases only its own claim', async () => {
    const { client, sent } = clientReplying('OK');
    const dedupe = createRedisDedupe(client, { doneTtlMs: 5678 });
    await dedupe.done('evt-2', 'tok');
    await dedupe.release('evt-3', 'tok');
    expect(sent[0]).toEqual(['SET', 'questkit:webhook:evt-2', 'done', 'PX', '5678']);
    expect(sent[1]!.slice(0, 1)).toEqual(['EVAL']);
    expect(sent[1]!.slice(2)).toEqual(['1', 'questkit:webhook:evt-3', 'tok']);
    expect(sent[1]![1]).toContain("redis.call('GET', KEYS[1]) == ARGV[1]");
  });

  it('sends through ioredis `call` before `sendCommand` (ioredis has both)', async () => {
    const calls: unknown[][] = [];
    const ioredis = {
      call: async (command: string, args: (string | number)[]) => {
        calls.push([command, ...args]);
        return 'busy';
      },
      sendCommand: async () => {
        throw new Error('ioredis sendCommand takes a Command object');
      },
    };
    expect(await createRedisDedupe(ioredis).claim('evt-4', 'tok')).toBe('busy');
    expect(calls[0]![0]).toBe('EVAL');
  });

  it('takes `call` or `sendCommand` only when it is a function', async () => {
    const { sent, client } = clientReplying('claimed');
    const odd = { call: 'not a function', ...client };
    expect(await createRedisDedupe(odd as never).claim('evt-5', 't')).toBe('claimed');
    expect(sent).toHaveLength(1);
    expect(() => createRedisDedupe({ sendCommand: 1 } as never)).toThrow(/node-redis or ioredis/);
  });

  it('refuses no client, a URL instead of a client, a prefix that is not text and bad lifetimes', () => {
    for (const client of [null, undefined, 'redis://localhost:6379']) {
      expect(() => createRedisDedupe(client as never)).toThrow(
        '[@questkit/core] webhooks: createRedisDedupe needs a connected node-redis or ioredis client',
      );
    }
    const { client } = clientReplying('claimed');
    expect(() => createRedisDedupe(client, { prefix: 1 as never })).toThrow(
      '[@questkit/core] webhooks: the Redis key prefix must be a string',
    );
    expect(() => createRedisDedupe(client, { doneTtlMs: 0 })).toThrow(
      /createRedisDedupe: doneTtlMs/,
    );
  });

  it('refuses a client that is neither', () => {
    expect(() => createRedisDedupe({} as never)).toThrow(/node-redis or ioredis/);
    expect(() => createRedisDedupe({ prefix: 1 } as never)).toThrow(TypeError);
  });
});
