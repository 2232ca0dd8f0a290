import * as connect from '@questkit/example-connect';
import * as express from '@questkit/example-express';
import * as fastify from '@questkit/example-fastify';
import * as hono from '@questkit/example-hono';
import { createMockPlatform, DEMO } from '@questkit/mock-platform';
import { describe, expect, it } from 'vitest';

// The examples default to the mock's seeded demo quests, task key and connect secret, so that
// `questkit mock` and `pnpm --filter <example> start` work together with no configuration. The
// examples do not import the mock (a real app would not): these tests keep the copies in step.
describe("the examples' defaults match the mock platform's demo seed", () => {
  it('quest ids', () => {
    expect(express.DEFAULT_QUEST_IDS).toEqual({
      newsletter: DEMO.quests.verifyEmail,
      purchase: DEMO.quests.connectWallet,
    });
    expect(fastify.DEFAULT_QUEST_IDS).toEqual({
      registered: DEMO.quests.verifyEmail,
      attended: DEMO.quests.joinDiscord,
    });
    expect(hono.DEFAULT_QUEST_IDS).toEqual({
      discord: DEMO.quests.joinDiscord,
      pass: DEMO.quests.connectWallet,
    });
  });

  it('task key, connect secret and default port', () => {
    const store = createMockPlatform().store;
    const seeded = [DEMO.quests.verifyEmail, DEMO.quests.connectWallet, DEMO.quests.joinDiscord];
    for (const id of seeded) {
      const task = store.quests.get(id)!.tasks[0]!;
      expect(task.settings.apiKey).toBe(express.DEMO_TASK_KEY);
      expect(task.settings.endpoint).toBe('http://127.0.0.1:4010/verify');
    }
    for (const key of [fastify.DEMO_TASK_KEY, hono.DEMO_TASK_KEY, connect.DEMO_TASK_KEY]) {
      expect(key).toBe(express.DEMO_TASK_KEY);
    }
    expect(connect.DEMO_CONNECT_SECRET).toBe(DEMO.connectSecret);
    expect(DEMO.connectRedirectUrl).toBe('http://127.0.0.1:4010/connect');
    for (const readConfig of [express.readConfig, fastify.readConfig, hono.readConfig]) {
      expect(readConfig({}).port).toBe(4010);
    }
    expect(connect.readConfig({}).port).toBe(4010);
  });
});
