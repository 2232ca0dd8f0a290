import type { RedisCommands } from './state.js';

/** Options of {@link connectRedis}. */
export interface ConnectRedisOptions {
  /** How long start-up may wait for Redis to answer, default 5 000 ms. */
  timeoutMs?: number;
  /** Hears the client's errors after start-up (it reconnects by itself); never given the URL. */
  onError?: (error: Error) => void;
}

/**
 * Connects to Redis and waits for it to answer a PING, at most `timeoutMs`: a Redis that accepts
 * the connection and never answers (stalled, or another service on its port), or one that
 * cannot be reached, is an error that says so, instead of a start-up that waits forever. The URL
 * (it may carry a password) is never in the message.
 *
 * @example
 * const redis = await connectRedis(process.env.REDIS_URL!, { onError: (e) => console.error(e.message) });
 * const state = createRedisState(redis);
 */
export async function connectRedis(
  url: string,
  options: ConnectRedisOptions = {},
): Promise<RedisCommands & { destroy(): void }> {
  const timeoutMs = options.timeoutMs ?? 5_000;
  // Loaded only when used: one instance in memory starts without it.
  const { createClient } = await import('redis');
  const client = createClient({ url, disableOfflineQueue: true });
  let lastError: Error | undefined;
  client.on('error', (error: Error) => {
    lastError = error;
    options.onError?.(error);
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const ready = (async () => {
    await client.connect();
    await client.ping();
    return 'ready' as const;
  })();
  // Past the time limit `ready` may still reject (the client is destroyed): nobody awaits it.
  ready.catch(() => {});
  const outcome = await Promise.race([ready, timedOut])
    .catch((error: unknown) => {
      client.destroy();
      throw new Error(`Redis (REDIS_URL) could not be reached: ${(error as Error).message}`);
    })
    .finally(() => clearTimeout(timer));
  if (outcome === 'timeout') {
    client.destroy();
    const why = lastError ? ` (last error: ${lastError.message})` : '';
    throw new Error(
      `Redis (REDIS_URL) did not answer within ${timeoutMs} ms${why}. Check that it runs, answers on that address, and that the URL's password is right.`,
    );
  }
  return client as unknown as RedisCommands & { destroy(): void };
}
