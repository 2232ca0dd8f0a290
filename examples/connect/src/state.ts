/**
 * Where the app keeps what every instance must share: sessions, platform links and the login
 * throttle's counters. In memory for one process; on Redis (`REDIS_URL`) when several instances
 * run behind a load balancer, so that a login on one is a session on the others and the throttle
 * counts attempts across all of them.
 */
export interface AppState {
  /** Stores `value` under `key`, for `ttlMs` when given, else until replaced. */
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  get(key: string): Promise<string | null>;
  delete(key: string): Promise<void>;
  /**
   * Counts one hit on `key`, atomically, in a window of `windowMs` that opens at its first hit;
   * returns the hits counted in the window so far, this one included.
   */
  hit(key: string, windowMs: number): Promise<number>;
}

/**
 * The app's state in this process's memory: right for one instance. Expired entries are swept as
 * writes go on, so counters of a login flood do not pile up.
 *
 * @example
 * const state = createMemoryState();
 */
export function createMemoryState(now: () => number = Date.now): AppState {
  const entries = new Map<string, { value: string; expiresAt: number }>();
  let nextSweep = now() + 60_000;
  const live = (key: string) => {
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  const write = (key: string, value: string, expiresAt: number) => {
    entries.set(key, { value, expiresAt });
    if (now() >= nextSweep) {
      nextSweep = now() + 60_000;
      for (const [name, entry] of entries) if (entry.expiresAt <= now()) entries.delete(name);
    }
  };
  return {
    async set(key, value, ttlMs) {
      write(key, value, ttlMs === undefined ? Number.POSITIVE_INFINITY : now() + ttlMs);
    },
    get: async (key) => live(key)?.value ?? null,
    async delete(key) {
      entries.delete(key);
    },
    async hit(key, windowMs) {
      const entry = live(key);
      const count = Number(entry?.value ?? 0) + 1;
      write(key, String(count), entry?.expiresAt ?? now() + windowMs);
      return count;
    },
  };
}

/** The part of a node-redis client (`redis`) the state uses: its raw command call. */
export interface RedisCommands {
  sendCommand(args: string[], options?: { abortSignal?: AbortSignal }): Promise<unknown>;
}

/** The store did not answer in time, or failed: the app fails closed with a 503 page. */
export class StateUnavailableError extends Error {
  override readonly name = 'StateUnavailableError';
}

/** Options of {@link createRedisState}. */
export interface RedisStateOptions {
  /** Prefix of every key (default `acme:`). */
  prefix?: string;
  /** Most ms one command may take; past it the call fails (default 1000). */
  timeoutMs?: number;
}

// INCR and the window's expiry in one atomic step: a counter never outlives its window.
const HIT = `local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

/**
 * The app's state on Redis, shared by every instance: sessions and counters expire in Redis
 * itself (`PX`). Every command has a time limit: a Redis that fails or stalls makes the call
 * reject with a {@link StateUnavailableError}, so a login or a session check fails (closed)
 * instead of skipping the throttle, trusting a cookie or hanging the page.
 *
 * @example
 * const client = await createClient({ url: process.env.REDIS_URL }).connect();
 * const state = createRedisState(client, { timeoutMs: 1000 });
 */
export function createRedisState(client: RedisCommands, options: RedisStateOptions = {}): AppState {
  const prefix = options.prefix ?? 'acme:';
  const timeoutMs = options.timeoutMs ?? 1_000;
  const command = async (args: string[]): Promise<unknown> => {
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abort.abort();
        reject(new StateUnavailableError(`Redis did not answer ${args[0]} within ${timeoutMs} ms`));
      }, timeoutMs);
    });
    const sent = client.sendCommand(args, { abortSignal: abort.signal });
    // Settles after the deadline when Redis comes back: nobody waits for it then.
    sent.catch(() => {});
    try {
      return await Promise.race([sent, deadline]);
    } catch (error) {
      if (error instanceof StateUnavailableError) throw error;
      throw new StateUnavailableError(`Redis failed on ${args[0]}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    async set(key, value, ttlMs) {
      await command(
        ttlMs === undefined
          ? ['SET', prefix + key, value]
          : ['SET', prefix + key, value, 'PX', String(Math.max(1, Math.ceil(ttlMs)))],
      );
    },
    async get(key) {
      const value = await command(['GET', prefix + key]);
      return typeof value === 'string' ? value : null;
    },
    async delete(key) {
      await command(['DEL', prefix + key]);
    },
    async hit(key, windowMs) {
      return Number(await command(['EVAL', HIT, '1', prefix + key, String(windowMs)]));
    },
  };
}
