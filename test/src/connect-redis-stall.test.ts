import {
  createCommunity,
  createRedisState,
  DEMO_MEMBERS,
  type RunningServer,
  startServer,
} from '@questkit/example-connect';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from './redis.testkit.js';

// Attack of issue 49: a Redis that stops answering (here `DEBUG SLEEP`, a server that accepts
// commands and answers none for a while) hung the connect example's pages until it came back.

const STALL_SECONDS = 6;
let redis: TestRedis;
let app: RunningServer;
let appClient: ReturnType<typeof createClient>;
let staller: ReturnType<typeof createClient>;

beforeAll(async () => {
  redis = await startRedis(['--enable-debug-command', 'local']);
  appClient = createClient({ url: redis.url });
  appClient.on('error', () => {});
  await appClient.connect();
  staller = createClient({ url: redis.url });
  staller.on('error', () => {});
  await staller.connect();
  const state = createRedisState(appClient);
  app = await startServer({
    apiKey: 'stall-task-key',
    connectSecret: 'stall-connect-secret',
    state,
    community: createCommunity(DEMO_MEMBERS, Date.now, state),
    port: 0,
  });
}, 30_000);
afterAll(async () => {
  await app?.close();
  appClient?.destroy();
  staller?.destroy();
  await redis?.stop();
});

/** Runs `use` while Redis sleeps; true when every answer came before Redis woke up. */
async function whileStalled(use: () => Promise<void>): Promise<boolean> {
  let awake = false;
  const sleeping = staller.sendCommand(['DEBUG', 'SLEEP', String(STALL_SECONDS)]).then(() => {
    awake = true;
  });
  // The sleep starts when Redis reads it: a PING through another connection waits behind it.
  await new Promise((resolve) => setTimeout(resolve, 200));
  try {
    await use();
    return !awake;
  } finally {
    await sleeping;
  }
}

const get = (path: string, cookie?: string) =>
  fetch(`${app.url}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });

describe('the connect example with a stalled Redis', () => {
  it('answers /, /connect, /logout and login with a clear 503 page before Redis wakes up', async () => {
    const answers: Array<{ path: string; status: number; text: string }> = [];
    const page = await (await get('/login')).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!;
    const inTime = await whileStalled(async () => {
      const requests: Array<[string, Promise<Response>]> = [
        ['/', get('/', 'sid=some-session')],
        ['/connect', get('/connect?svcUserId=x', 'sid=some-session')],
        [
          '/logout',
          fetch(`${app.url}/logout`, {
            method: 'POST',
            redirect: 'manual',
            headers: {
              cookie: 'sid=some-session',
              origin: app.url,
              'content-type': 'application/x-www-form-urlencoded',
            },
            body: 'csrf=x',
          }),
        ],
        [
          '/login',
          fetch(`${app.url}/login`, {
            method: 'POST',
            redirect: 'manual',
            headers: {
              cookie: `login_csrf=${csrf}`,
              origin: app.url,
              'content-type': 'application/x-www-form-urlencoded',
            },
            body: new URLSearchParams({
              username: 'ada',
              password: 'ada-demo-password',
              returnTo: '/',
              csrf,
            }).toString(),
          }),
        ],
      ];
      for (const [path, pending] of requests) {
        const response = await pending;
        answers.push({ path, status: response.status, text: await response.text() });
        // Fails closed: no session opened while the store cannot be asked.
        expect(response.headers.getSetCookie().join()).not.toMatch(/sid=[^;]/);
      }
    });
    expect(inTime).toBe(true);
    for (const answer of answers) {
      expect(answer, answer.path).toMatchObject({ status: 503 });
      expect(answer.text).toContain('try again');
    }
  }, 30_000);

  it('serves again once Redis answers', async () => {
    expect((await get('/')).status).toBe(200);
  });
});
