import { runConformance } from '@questkit/conformance';
import * as express from '@questkit/example-express';
import * as fastify from '@questkit/example-fastify';
import * as hono from '@questkit/example-hono';
import { DEMO } from '@questkit/mock-platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADA_ACCOUNTS, MEMBERS, startPlatform, type TestPlatform } from './platform.testkit.js';

// The three verification examples, each answering two of the mock's seeded quests. For each
// quest: a member who passes, one who does not (and what the endpoint tells them), and one whose
// profile lacks the account the task identifies members by.
interface QuestCase {
  name: string;
  questId: string;
  success: { userId: string; message: string };
  failure: { userId: string; message: RegExp };
  missing: { userId: string; account: string; ask: RegExp };
}

interface ExampleCase {
  name: string;
  start: (options: { apiKey: string; port: number }) => Promise<{
    verifyUrl: string;
    close(): Promise<void>;
  }>;
  quests: QuestCase[];
}

const EXAMPLES: ExampleCase[] = [
  {
    name: 'Express (shop)',
    start: express.startServer,
    quests: [
      {
        name: 'newsletter',
        questId: DEMO.quests.verifyEmail,
        success: {
          userId: MEMBERS.ada,
          message: 'Thanks for reading our newsletter! Quest complete.',
        },
        failure: { userId: MEMBERS.ben, message: /not on our newsletter list/ },
        missing: { userId: MEMBERS.cleo, account: 'email', ask: /add an email address/ },
      },
      {
        name: 'purchase',
        questId: DEMO.quests.connectWallet,
        success: {
          userId: MEMBERS.ada,
          message: 'Thanks for your order of Community hoodie! Quest complete.',
        },
        failure: { userId: MEMBERS.jay, message: /no order paid from your wallet/ },
        missing: { userId: MEMBERS.ben, account: 'wallet', ask: /connect a wallet/ },
      },
    ],
  },
  {
    name: 'Fastify (meetup)',
    start: fastify.startServer,
    quests: [
      {
        name: 'registration',
        questId: DEMO.quests.verifyEmail,
        success: {
          userId: MEMBERS.ben,
          message: "You're registered for the community call. See you there!",
        },
        failure: { userId: MEMBERS.gus, message: /no registration for the email address/ },
        missing: { userId: MEMBERS.cleo, account: 'email', ask: /add an email address/ },
      },
      {
        name: 'attendance',
        questId: DEMO.quests.joinDiscord,
        success: {
          userId: MEMBERS.ada,
          message: 'Thanks for joining the community call! Quest complete.',
        },
        failure: { userId: MEMBERS.ben, message: /^You were in the call for 5 minutes/ },
        missing: { userId: MEMBERS.cleo, account: 'discord', ask: /link your Discord account/ },
      },
    ],
  },
  {
    name: 'Hono (guild)',
    start: hono.startServer,
    quests: [
      {
        name: 'Discord role',
        questId: DEMO.quests.joinDiscord,
        success: {
          userId: MEMBERS.ada,
          message: 'Welcome to the guild, ada.lovelace! Quest complete.',
        },
        failure: { userId: MEMBERS.ben, message: /pick a role in #roles/ },
        missing: { userId: MEMBERS.cleo, account: 'discord', ask: /link your Discord account/ },
      },
      {
        name: 'membership pass',
        questId: DEMO.quests.connectWallet,
        success: { userId: MEMBERS.ada, message: 'Your membership pass is valid. Quest complete.' },
        failure: { userId: MEMBERS.jay, message: /holds no membership pass/ },
        missing: { userId: MEMBERS.ben, account: 'wallet', ask: /connect a wallet/ },
      },
    ],
  },
];

describe.each(EXAMPLES)('the $name example, driven by the mock platform', (example) => {
  let endpoint: Awaited<ReturnType<ExampleCase['start']>>;
  let mock: TestPlatform;
  beforeAll(async () => {
    // The seeded quests carry the demo task key and call the example.
    endpoint = await example.start({ apiKey: 'demo-task-key', port: 0 });
    mock = await startPlatform(endpoint.verifyUrl);
  });
  afterAll(async () => {
    await mock?.close();
    await endpoint?.close();
  });

  describe.each(example.quests)('quest: $name', (quest) => {
    it('claims for a member who did it', async () => {
      const { status, body } = await mock.client.claim(quest.questId, quest.success.userId);
      expect(status).toBe(200);
      expect(body).toMatchObject({
        status: 'success',
        reason: 'claimed',
        message: quest.success.message,
      });
      expect(body.tasks[0]).toMatchObject({ outcome: 'verified', response: { status: 200 } });
    });

    it('fails the claim of a member who did not, with the message and the requestId', async () => {
      const { body } = await mock.client.claim(quest.questId, quest.failure.userId);
      expect(body).toMatchObject({ status: 'failed', reason: 'not-verified' });
      expect(body.message).toMatch(quest.failure.message);
      expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.parse(body.tasks[0]?.request?.body ?? '{}').requestId).toBe(body.requestId);
      expect(body.tasks[0]?.response?.status).toBe(400);
    });

    it('refuses, before any call, a member without the account the task needs', async () => {
      const before = mock.platform.service.calls.list({ userId: quest.missing.userId }).length;
      const { body } = await mock.client.claim(quest.questId, quest.missing.userId);
      expect(body).toMatchObject({
        status: 'failed',
        reason: 'account-not-linked',
        missingAccounts: [quest.missing.account],
      });
      expect(body.message).toMatch(quest.missing.ask);
      expect(mock.platform.service.calls.list({ userId: quest.missing.userId })).toHaveLength(
        before,
      );
    });
  });

  it("passes the platform's automatic checks when a quest is created with it", async () => {
    const { status, body } = await mock.client.createQuest({
      categoryId: DEMO.modules.onboarding,
      name: `A new quest for the ${example.name} example`,
      published: true,
      recurrence: 'once',
      conditionOperator: 'AND',
      tasks: [
        {
          type: 'api',
          settings: {
            endpoint: endpoint.verifyUrl,
            apiKey: 'demo-task-key',
            identifications: ['email'],
          },
        },
      ],
    });
    expect(status).toBe(200);
    const checks = await mock.client.endpointChecks(body.id, 12_000);
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ state: 'done', passed: true, status: 400, apiKeySent: true });
  });

  it('passes the conformance runner', async () => {
    const report = await runConformance({
      url: endpoint.verifyUrl,
      apiKey: 'demo-task-key',
      member: {
        userId: MEMBERS.ada,
        communityId: DEMO.communityId,
        subdomain: DEMO.subdomain,
        questId: example.quests[0]!.questId,
        accounts: ADA_ACCOUNTS,
      },
      expect: 'pass',
    });
    const failed = report.checks.filter((check) => check.status === 'fail');
    expect(failed.map((check) => `${check.id}: ${check.findings[0]?.message}`)).toEqual([]);
    expect(report.summary).toMatchObject({ ok: true, skipped: 0 });
    expect(report.summary.platform).toEqual({
      response_time: 'pass',
      message_format: 'pass',
      status_code: 'pass',
    });
  });
});
