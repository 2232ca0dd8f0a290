/**
 * Webhook deliveries a second through a receiver whose dedupe store is this process's memory,
 * against one on Redis (node-redis, a local redis-server started here on a free loopback port,
 * without persistence). Each delivery is a new event id, so every request claims, runs a handler
 * that does nothing, and marks the id done: the store's whole cost. Interleaved rounds, medians.
 *
 *   node webhook-dedupe.mjs [--duration 3] [--rounds 3] [--connections 20]
 *
 * The receiver runs in its own process (Hono on @hono/node-server), the load (autocannon) in this one.
 * Then the store alone, without HTTP: claim and done for 20,000 event ids, 20 at a time.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const SECRET = 'whsec_bench';
const self = fileURLToPath(import.meta.url);

if (process.argv[2] === '--serve') {
  const [, , , store, redisUrl] = process.argv;
  const { serve } = await import('@hono/node-server');
  const { createMemoryDedupe, createRedisDedupe } = await import('@questkit/core');
  const { webhookEndpoint } = await import('@questkit/hono');
  const { Hono } = await import('hono');
  let dedupe = createMemoryDedupe({ maxIds: 1_000_000 });
  if (store === 'redis') {
    const { createClient } = await import('redis');
    const client = createClient({ url: redisUrl, disableOfflineQueue: true });
    client.on('error', () => {});
    dedupe = createRedisDedupe(await client.connect());
  }
  let runs = 0;
  const app = new Hono();
  app.post(
    '/webhooks',
    webhookEndpoint({ secret: SECRET, dedupe, on: { JOINED_COMMUNITY: () => void runs++ } }),
  );
  app.get('/runs', (c) => c.json({ runs }));
  serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
    process.send({ port: info.port }),
  );
} else {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '3' },
      rounds: { type: 'string', default: '3' },
      connections: { type: 'string', default: '20' },
    },
  });
  const { default: autocannon } = await import('autocannon');
  const port = await new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address();
      probe.close(() => resolve(free));
    });
  });
  const redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('redis-server not ready in 10 s')), 10_000);
    let out = '';
    redis.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    redis.once('exit', () => reject(new Error('redis-server exited')));
  });
  const results = { memory: [], redis: [] };
  const storeOnly = {};
  try {
    for (let round = 0; round < Number(values.rounds); round++) {
      for (const store of ['memory', 'redis']) {
        const server = spawn(
          process.execPath,
          [self, '--serve', store, `redis://127.0.0.1:${port}`],
          {
            stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
          },
        );
        const serverPort = await new Promise((resolve) =>
          server.once('message', (m) => resolve(m.port)),
        );
        const event = () =>
          JSON.stringify({
            id: randomUUID(),
            type: 'JOINED_COMMUNITY',
            time: 1_748_779_200_000,
            data: {
              community: {
                id: 'c-1',
                name: 'Demo',
                subdomain: 'demo',
                blockchain: null,
                discord: null,
                twitter: null,
                website: null,
              },
              user: {
                id: 'u-1',
                name: 'zoe',
                twitter: null,
                discord: null,
                email: null,
                addresses: {},
              },
            },
            secret: SECRET,
          });
        const result = await autocannon({
          url: `http://127.0.0.1:${serverPort}/webhooks`,
          connections: Number(values.connections),
          duration: Number(values.duration),
          requests: [
            {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              setupRequest: (request) => ({ ...request, body: event() }),
            },
          ],
        });
        const { runs } = await (await fetch(`http://127.0.0.1:${serverPort}/runs`)).json();
        server.kill('SIGTERM');
        if (
          result.non2xx > 0 ||
          result.errors > 0 ||
          runs < result['2xx'] ||
          runs > result['2xx'] + Number(values.connections)
        ) {
          throw new Error(
            `${store}: ${result.non2xx} non-2xx, ${result.errors} errors, ${runs} runs for ${result['2xx']} answers`,
          );
        }
        console.log(
          `  round ${round + 1} ${store}: ${Math.round(result.requests.average)} /s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
        );
        results[store].push(result.requests.average);
      }
    }
    // The store alone, without HTTP: claim and done per event id, 20 at a time, from this process.
    {
      const { createMemoryDedupe, createRedisDedupe } = await import('@questkit/core');
      const { createClient } = await import('redis');
      const client = createClient({ url: `redis://127.0.0.1:${port}`, disableOfflineQueue: true });
      client.on('error', () => {});
      await client.connect();
      try {
        for (const [name, dedupe] of [
          ['memory', createMemoryDedupe({ maxIds: 1_000_000 })],
          ['redis', createRedisDedupe(client)],
        ]) {
          const events = 20_000;
          let next = 0;
          const started = performance.now();
          await Promise.all(
            Array.from({ length: 20 }, async () => {
              while (next < events) {
                const id = `evt-${next++}`;
                if ((await dedupe.claim(id, 'token')) !== 'claimed')
                  throw new Error(`${id} not claimed`);
                await dedupe.done(id, 'token');
              }
            }),
          );
          storeOnly[name] = events / ((performance.now() - started) / 1000);
        }
      } finally {
        client.destroy();
      }
    }
  } finally {
    redis.kill('SIGTERM');
  }
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const memory = median(results.memory);
  const onRedis = median(results.redis);
  console.log(
    `webhook deliveries a second (${values.rounds} rounds of ${values.duration} s, ${values.connections} connections, medians):`,
  );
  console.log(
    `  memory store: ${Math.round(memory)} /s (rounds ${results.memory.map(Math.round).join(', ')})`,
  );
  console.log(
    `  Redis store:  ${Math.round(onRedis)} /s (rounds ${results.redis.map(Math.round).join(', ')})`,
  );
  console.log(`  Redis / memory: ${(onRedis / memory).toFixed(2)}`);
  console.log('the store alone (claim + done per event, 20 at a time, 20,000 events):');
  console.log(
    `  memory store: ${Math.round(storeOnly.memory)} /s, Redis store: ${Math.round(storeOnly.redis)} /s`,
  );
}
