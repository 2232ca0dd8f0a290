import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sampleEvent } from '@questkit/conformance';
import type { WebhookEventOf } from '@questkit/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  MEMBERS,
  MEMORY_DEDUPE_WARNING,
  questSucceeded,
  warnIfMemoryDedupe,
} from '../src/webhooks.js';
import { TEST_ENV } from './env.js';
import { startApp } from './start.js';

// Webhook deliveries as the platform makes them: a POST of the event and the webhook's secret as
// JSON, User-Agent Svc-Webhook, no signature. The events are questkit's samples of the platform's.

let app: Awaited<ReturnType<typeof startApp>>;
beforeAll(async () => {
  app = await startApp(TEST_ENV);
});
afterAll(() => app?.close());

const IDS = { communityId: 'community-1', subdomain: 'demo', userId: 'user-1', questId: 'quest-1' };

/** A QUEST_SUCCEEDED of `questId` for the platform user whose email is `email`. */
const succeeded = (questId: string, email: string | null) => {
  const event = sampleEvent('QUEST_SUCCEEDED', {
    ...IDS,
    questId,
  }) as WebhookEventOf<'QUEST_SUCCEEDED'>;
  return { ...event, data: { ...event.data, user: { ...event.data.user, email } } };
};

const deliver = (event: object, secret = TEST_ENV.WEBHOOK_SECRET!) =>
  fetch(`${app.origin}/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'Svc-Webhook' },
    body: JSON.stringify({ ...event, secret }),
  });

describe('the webhook receiver', () => {
  it('answers 200 to a delivery, and to its retry (the same event id)', async () => {
    const event = succeeded('quest-3', 'ada@example.com');
    expect((await deliver(event)).status).toBe(200);
    expect((await deliver(event)).status).toBe(200);
  });

  it('answers 200 to an event type it has no handler for', async () => {
    expect((await deliver(sampleEvent('SPRINT_STARTED', IDS))).status).toBe(200);
  });

  it('refuses a delivery carrying another secret', async () => {
    const forged = await deliver(sampleEvent('QUEST_SUCCEEDED', IDS), 'whsec_guessed');
    expect(forged.status).not.toBe(200);
  });
});

describe('QUEST_SUCCEEDED', () => {
  it("credits the quest to your member found by the platform's user, once", async () => {
    const ada = MEMBERS.find((member) => member.email === 'ada@example.com')!;
    const event = succeeded('quest-1', 'ADA@example.com');
    const before = ada.xp;
    await questSucceeded(event);
    await questSucceeded(event);
    expect(ada.quests.has('quest-1')).toBe(true);
    expect(ada.xp).toBe(before + (event.data.quest.xp ?? 0));
  });

  it('leaves a user you do not know alone', async () => {
    await questSucceeded(succeeded('quest-2', 'someone@example.org'));
    await questSucceeded(succeeded('quest-2', null));
    expect(MEMBERS.some((member) => member.quests.has('quest-2'))).toBe(false);
  });
});

/** What src/main.ts prints on stderr by the time it is listening, run with NODE_ENV=`nodeEnv` (bounded: 20 s). */
async function startupWarnings(nodeEnv: string): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: { ...process.env, ...TEST_ENV, PORT: '0', NODE_ENV: nodeEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (let i = 0; i < 200 && !stdout.includes('Webhook URL') && child.exitCode === null; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  await exited;
  expect(stdout, stderr).toContain('Webhook URL');
  return stderr;
}

describe('deduplicating deliveries in memory', () => {
  it('warns once in production, never in tests or development', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    warnIfMemoryDedupe('test');
    warnIfMemoryDedupe('development');
    warnIfMemoryDedupe(undefined);
    expect(warn).not.toHaveBeenCalled();
    warnIfMemoryDedupe('production');
    warnIfMemoryDedupe('production');
    expect(warn.mock.calls).toEqual([[MEMORY_DEDUPE_WARNING]]);
    warn.mockRestore();
  });

  it('says so at start with NODE_ENV=production, and not in development', async () => {
    const production = await startupWarnings('production');
    expect(production.split(MEMORY_DEDUPE_WARNING).length - 1).toBe(1);
    expect(await startupWarnings('development')).not.toContain('deduplicated');
  });
});
