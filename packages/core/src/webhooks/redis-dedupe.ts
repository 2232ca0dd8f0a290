import {
  type DedupeClaim,
  type DedupeLifetimes,
  readLifetimes,
  type WebhookDedupe,
} from './dedupe.js';

/**
 * The part of a Redis client that {@link createRedisDedupe} uses, typed by shape so that core
 * depends on no client library: a node-redis client (`redis`, its `sendCommand`) or an ioredis
 * client (its `call`), connected by the app.
 */
export type RedisDedupeClient =
  | {
      /** ioredis: sends one command with its arguments. */
      call(command: string, args: (string | number)[]): Promise<unknown>;
    }
  | {
      /** node-redis: sends one command, its name first. */
      sendCommand(args: string[]): Promise<unknown>;
    };

/** Options of {@link createRedisDedupe}. */
export interface RedisDedupeOptions extends DedupeLifetimes {
  /** Prefix of the keys, one per event id; default `questkit:webhook:`. */
  prefix?: string;
}

// One round trip, atomic: the claim if the key is free, else what holds it.
const CLAIM = `if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 'claimed' end
if redis.call('GET', KEYS[1]) == 'done' then return 'done' end
return 'busy'`;
// Compare and delete: a claim that expired and was taken by another delivery stays.
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * A webhook dedupe store on Redis, shared by every instance of the app: an event id is claimed
 * with `SET NX PX` (a Lua script, one round trip), marked done with an expiry, and released only
 * by the claim that holds it. Errors and refused commands reject, so the receiver answers 500 and
 * the platform retries: give the client no offline queue (node-redis `disableOfflineQueue: true`,
 * ioredis `enableOfflineQueue: false`) so that an unreachable Redis fails at once.
 *
 * @example
 * // createClient from the `redis` package (node-redis); an ioredis `new Redis(url)` works alike.
 * const redis = await createClient({ url: process.env.REDIS_URL, disableOfflineQueue: true }).connect();
 * const receiver = createWebhookReceiver({ secret, on, dedupe: createRedisDedupe(redis) });
 */
export function createRedisDedupe(
  client: RedisDedupeClient,
  options: RedisDedupeOptions = {},
): WebhookDedupe {
  const send = commandSender(client);
  const prefix = options.prefix ?? 'questkit:webhook:';
  if (typeof prefix !== 'string') {
    throw new TypeError('[@questkit/core] webhooks: the Redis key prefix must be a string');
  }
  const { doneTtlMs, claimTtlMs } = readLifetimes(options, 'createRedisDedupe');
  return {
    async claim(id, token) {
      const reply = text(await send(['EVAL', CLAIM, '1', prefix + id, token, String(claimTtlMs)]));
      if (reply === 'claimed' || reply === 'done' || reply === 'busy') return reply as DedupeClaim;
      throw new Error('[@questkit/core] webhooks: unexpected Redis reply to a dedupe claim');
    },
    async done(id) {
      await send(['SET', prefix + id, 'done', 'PX', String(doneTtlMs)]);
    },
    async release(id, token) {
      await send(['EVAL', RELEASE, '1', prefix + id, token]);
    },
  };
}

function commandSender(client: RedisDedupeClient): (args: string[]) => Promise<unknown> {
  // ioredis has both methods (its sendCommand takes a Command object): look for `call` first.
  if (typeof client === 'object' && client !== null) {
    if ('call' in client && typeof client.call === 'function') {
      return ([command, ...args]) => client.call(command!, args);
    }
    if ('sendCommand' in client && typeof client.sendCommand === 'function') {
      return (args) => client.sendCommand(args);
    }
  }
  throw new TypeError(
    '[@questkit/core] webhooks: createRedisDedupe needs a connected node-redis or ioredis client',
  );
}

/** A bulk string reply as text, whether the client gives strings or bytes. */
function text(reply: unknown): string | undefined {
  if (typeof reply === 'string') return reply;
  if (reply instanceof Uint8Array) return new TextDecoder().decode(reply);
  return undefined;
}
