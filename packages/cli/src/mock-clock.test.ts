// The test clock from the command line, as a newcomer drives it: the built binary, curl-like
// calls over loopback, a daily quest claimed, the clock advanced a day, the quest claimed again.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const DEMO_RW_KEY = 'qk_demo_rw_0f3a9c1e5b7d42a8';
const ADMIN = '10000000-0000-4000-8000-000000000001';
const ONBOARDING = 'a0000000-0000-4000-8000-000000000001';
const TASK_KEY = 'clock-test-task-key';
const DAY_MS = 86_400_000;

/** A verification endpoint on loopback: 200 for the task's key, 400 otherwise. */
let endpoint: Server;
let endpointUrl = '';
beforeAll(async () => {
  endpoint = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const ok = request.headers['x-api-key'] === TASK_KEY;
      response.writeHead(ok ? 200 : 400, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: ok ? 'Verified' : 'Wrong key' }));
    });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  endpointUrl = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/verify`;
});
afterAll(async () => {
  endpoint.closeAllConnections();
  await new Promise<void>((resolve) => endpoint.close(() => resolve()));
});

/** Starts `questkit mock` on a free port; its base URL and output once it listens. */
function startMock(args: string[]) {
  const child = spawn(process.execPath, [CLI, 'mock', '--port', '0', '--seed', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
  };
  child.stderr.on('data', collect);
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within 20 s:\n${output}`)), 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      collect(chunk);
      // The banner is written in one piece: once the last line is in, all of it is.
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match && output.includes('demo quests')) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}:\n${output}`));
    });
  });
  const stopped = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, url, stopped, output: () => output };
}

const post = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
};

describe('questkit mock --clock', () => {
  it('claims a daily quest, advances a day, and claims it again', async () => {
    const mock = startMock(['--clock', '2025-06-01T12:00:00Z', '--verbose']);
    try {
      const url = await mock.url;
      // The banner says the clock is manual and lists how to advance it.
      expect(mock.output()).toContain('Clock    manual, standing at 2025-06-01T12:00:00.000Z');
      expect(mock.output()).toContain(`curl -X POST '${url}/__mock/clock/advance'`);

      const created = await post(
        `${url}/public/communities/demo/quests`,
        {
          categoryId: ONBOARDING,
          name: 'Daily check-in',
          published: true,
          recurrence: 'daily',
          conditionOperator: 'AND',
          rewards: [{ type: 'xp', value: 10 }],
          tasks: [
            {
              type: 'api',
              settings: {
                title: 'Check-in',
                endpoint: endpointUrl,
                apiKey: TASK_KEY,
                identifications: ['email'],
              },
            },
          ],
        },
        { 'x-api-key': DEMO_RW_KEY },
      );
      expect(created.status).toBe(200);
      const claims = `${url}/__mock/communities/demo/quests/${created.body.id}/claims`;
      const claim = () => post(claims, { userId: ADMIN });

      expect((await claim()).body).toMatchObject({ status: 'success', reason: 'claimed' });
      expect((await claim()).body).toMatchObject({ status: 'failed', reason: 'already-claimed' });

      const advanced = await post(`${url}/__mock/clock/advance`, { ms: DAY_MS });
      expect(advanced).toMatchObject({
        status: 200,
        body: { now: '2025-06-02T12:00:00.000Z' },
      });
      expect((await claim()).body).toMatchObject({ status: 'success', reason: 'claimed' });
      const clock = await (await fetch(`${url}/__mock/clock`)).json();
      expect(clock).toMatchObject({ mode: 'manual', now: '2025-06-02T12:00:00.000Z' });
    } finally {
      mock.child.kill('SIGINT');
    }
    expect(await mock.stopped).toBe(0);
  }, 30_000);

  it('stands still with --clock manual; without it, says how to get a clock that moves', async () => {
    const manual = startMock(['--clock', 'manual']);
    try {
      const url = await manual.url;
      const first = (await (await fetch(`${url}/__mock/clock`)).json()) as { now: string };
      const again = (await (await fetch(`${url}/__mock/clock`)).json()) as { now: string };
      expect(again.now).toBe(first.now);
      expect((await post(`${url}/__mock/clock/advance`, { ms: 1000 })).status).toBe(200);
    } finally {
      manual.child.kill('SIGINT');
    }
    expect(await manual.stopped).toBe(0);

    const system = startMock([]);
    try {
      const url = await system.url;
      expect(system.output()).toContain('Clock    system time (start with --clock manual');
      // The banner shows no route that would answer 409 in this mode.
      expect(system.output()).not.toContain('/__mock/clock/advance');
      expect((await post(`${url}/__mock/clock/advance`, { ms: 1000 })).status).toBe(409);
    } finally {
      system.child.kill('SIGINT');
    }
    expect(await system.stopped).toBe(0);
  }, 30_000);
});
