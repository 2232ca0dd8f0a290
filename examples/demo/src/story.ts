import { runConformance } from '@questkit/conformance';
import type { VerificationRequest, WebhookEvent } from '@questkit/core';
import { COMMUNITY_NAME } from '@questkit/example-connect';
import { type ClaimResult, DEMO } from '@questkit/mock-platform';
import { createBrowser, readForm } from './browser.js';
import { quote, type Reporter, showUrl } from './reporter.js';
import type { DemoServers } from './servers.js';

/** The demo members, from the mock platform's seed. */
const MEMBERS = {
  ada: {
    id: DEMO.users.admin,
    accounts: {
      email: 'ada@example.com',
      wallet: '0x52908400098527886E0F7030069857D2E4169EE7',
      discord: { id: '80351110224678912', handle: 'ada.lovelace' },
      twitter: { id: '1426853018373939201', username: 'ada_builds' },
    },
  },
  ben: { id: DEMO.users.editor },
  cleo: { id: DEMO.users.reviewer },
} as const;

/** Time allowed for a quest's automatic checks: the platform's 10 s limit and a margin. */
const CHECKS_TIMEOUT_MS = 12_000;
/** The member a delivered event is about: under `data.user`, as the platform sends it. */
const eventUser = (event: WebhookEvent) => (event.data.user as { id?: unknown } | undefined)?.id;
const WEBHOOK_TIMEOUT_MS = 5_000;

/** What the story learned along the way, for the steps that follow and for the reader. */
export interface StoryState {
  newsletterQuestId?: string;
  invitesQuestId?: string;
  connectQuestId?: string;
}

/** One step: a title and the work, which reports its expectations. */
interface Step {
  title: string;
  run(servers: DemoServers, reporter: Reporter, state: StoryState): Promise<void>;
}

/** The claim a task's call sent: the recorded body is the JSON text the platform sent. */
function sentBody(task: ClaimResult['tasks'][number] | undefined): VerificationRequest | undefined {
  const text = task?.request?.body;
  return text === undefined ? undefined : (JSON.parse(text) as VerificationRequest);
}

function describeClaim(reporter: Reporter, result: ClaimResult): void {
  for (const task of result.tasks) {
    if (task.outcome === 'skipped' || !task.request) {
      reporter.detail('no call to the endpoint: the claim was refused before');
      continue;
    }
    const accounts = sentBody(task)?.accounts;
    reporter.detail(
      `the platform called POST ${task.request.url}${accounts ? ` with accounts ${quote(accounts)}` : ''} -> ${task.response?.status ?? task.error} in ${task.durationMs} ms`,
    );
  }
  reporter.detail(
    `claim ${result.status} (${result.reason}); the member sees ${quote(result.message)}`,
  );
}

async function createQuestStep(
  servers: DemoServers,
  reporter: Reporter,
  quest: { name: string; moduleId: string; settings: Record<string, unknown> },
): Promise<string | undefined> {
  const { status, body } = await servers.client.createQuest({
    categoryId: quest.moduleId,
    name: quest.name,
    published: true,
    recurrence: 'once',
    conditionOperator: 'AND',
    rewards: [{ type: 'xp', value: 100 }],
    tasks: [{ type: 'api', settings: { ...quest.settings, apiKey: servers.taskKey } }],
  });
  reporter.detail(`POST /public/communities/demo/quests ${quote(quest.name)} -> ${status}`);
  const created = status === 200;
  const outcome = created
    ? `quest created: ${body.id}`
    : `the quest was not created: ${quote((body as { message?: unknown } | null)?.message)}`;
  if (!reporter.expect(created, outcome)) return undefined;
  const checks = await servers.client.endpointChecks(body.id, CHECKS_TIMEOUT_MS);
  for (const check of checks) {
    reporter.detail(
      `automatic check of ${check.endpoint}: ${check.status ?? check.error} ${quote(check.message)} in ${check.durationMs} ms`,
    );
  }
  reporter.expect(
    checks.length > 0 && checks.every((check) => check.passed === true),
    "the endpoint passes the platform's automatic checks (in time, 200 or 400, a readable message)",
  );
  return body.id;
}

const STEPS: readonly Step[] = [
  {
    title: 'Create a quest whose API task calls the shop (Express example)',
    async run(servers, reporter, state) {
      const id = await createQuestStep(servers, reporter, {
        name: 'Subscribe to our newsletter',
        moduleId: DEMO.modules.onboarding,
        settings: {
          title: 'Newsletter subscription',
          description: 'Checked by the shop',
          endpoint: servers.shop.verifyUrl,
          identifications: ['email'],
        },
      });
      if (!id) return;
      state.newsletterQuestId = id;
      // The shop learns the id of its new quest from its configuration (NEWSLETTER_QUEST_ID).
      servers.reconfigureShop({ newsletter: id });
      const home = await fetch(servers.shop.url, { signal: AbortSignal.timeout(5_000) });
      reporter.expect(
        (await home.text()).includes(id),
        `the shop reloads its configuration with NEWSLETTER_QUEST_ID=${id}`,
      );
    },
  },
  {
    title: 'ada claims the quest: she reads the newsletter',
    async run(servers, reporter, state) {
      const { body } = await servers.client.claim(state.newsletterQuestId ?? '-', MEMBERS.ada.id);
      describeClaim(reporter, body);
      reporter.expect(
        body.status === 'success' && body.xpAwarded === 100,
        `claimed, +${body.xpAwarded} xp`,
      );
    },
  },
  {
    title: 'ben claims the quest: he never subscribed',
    async run(servers, reporter, state) {
      const { body } = await servers.client.claim(state.newsletterQuestId ?? '-', MEMBERS.ben.id);
      describeClaim(reporter, body);
      const sent = sentBody(body.tasks[0])?.requestId;
      reporter.expect(
        body.status === 'failed' && body.reason === 'not-verified',
        'not verified: the claim fails',
      );
      reporter.expect(
        /newsletter list/.test(body.message) && sent === body.requestId,
        `the member sees the shop's message with request id ${body.requestId}`,
      );
    },
  },
  {
    title: 'cleo claims the quest: her profile has no email address',
    async run(servers, reporter, state) {
      const { body } = await servers.client.claim(state.newsletterQuestId ?? '-', MEMBERS.cleo.id);
      describeClaim(reporter, body);
      reporter.expect(
        body.reason === 'account-not-linked' &&
          body.missingAccounts.join() === 'email' &&
          body.tasks.every((task) => task.outcome === 'skipped'),
        'refused before any call: the member is asked to add an email address',
      );
    },
  },
  {
    title: 'Create an "invite 3 friends" quest: the shop reads invites with @questkit/client',
    async run(servers, reporter, state) {
      const id = await createQuestStep(servers, reporter, {
        name: 'Invite 3 friends',
        moduleId: DEMO.modules.community,
        settings: {
          title: 'Three friends joined',
          description: 'Checked by the shop, which asks the platform for the invites',
          endpoint: servers.shop.verifyUrl,
        },
      });
      if (!id) return;
      state.invitesQuestId = id;
      servers.reconfigureShop({ newsletter: state.newsletterQuestId, invites: id });
      reporter.detail(
        "the shop's handler: platform.paginate('listInvites', { userId, status: 'active' }), stopping at 3",
      );
    },
  },
  {
    title: 'ada claims it: the shop finds three active invites on the platform',
    async run(servers, reporter, state) {
      const { body } = await servers.client.claim(state.invitesQuestId ?? '-', MEMBERS.ada.id);
      describeClaim(reporter, body);
      reporter.expect(body.status === 'success', 'claimed: the shop counted her invites');
    },
  },
  {
    title: 'ben claims it: nobody joined with his link yet',
    async run(servers, reporter, state) {
      const { body } = await servers.client.claim(state.invitesQuestId ?? '-', MEMBERS.ben.id);
      describeClaim(reporter, body);
      reporter.expect(
        body.reason === 'not-verified' && /0 active invites/.test(body.message),
        'not verified: the member is told how many invites are missing',
      );
    },
  },
  {
    title: `ben connects his ${COMMUNITY_NAME} account (connect example)`,
    async run(servers, reporter, state) {
      const { community } = servers;
      const questId = await createQuestStep(servers, reporter, {
        name: `Connect your ${COMMUNITY_NAME} account`,
        moduleId: DEMO.modules.partners,
        settings: {
          title: `${COMMUNITY_NAME} account`,
          endpoint: community.verifyUrl,
          redirectUrl: community.connectUrl,
          identifications: ['svc-connect'],
        },
      });
      if (!questId) return;
      state.connectQuestId = questId;

      const browser = createBrowser();
      const start = servers.client.connectStartUrl(questId, MEMBERS.ben.id);
      reporter.detail('ben opens the quest and clicks "Connect"; his browser goes:');
      const arrival = await browser.open(start);
      const labels = { [servers.mock.url]: 'platform', [community.url]: 'community' };
      const show = (hops: typeof arrival.hops) => {
        for (const hop of hops) {
          const cookies =
            hop.cookiesSet.length > 0 ? ` (sets cookie ${hop.cookiesSet.join(', ')})` : '';
          reporter.detail(
            `  ${hop.method} ${showUrl(hop.url, labels)} -> ${hop.status}${hop.location ? ` ${showUrl(hop.location, labels)}` : ''}${cookies}`,
          );
        }
      };
      show(arrival.hops);
      const redirect = arrival.hops[0]?.location ?? '';
      reporter.expect(
        redirect.startsWith(`${community.connectUrl}?`) &&
          new URL(redirect).searchParams.has('signature'),
        'the platform redirects to the community with svcUserId, callback and a signature',
      );
      const form = readForm(arrival);
      if (
        !reporter.expect(form !== null, 'not logged in there: the community shows its login page')
      ) {
        return;
      }
      reporter.detail('ben logs in on the community (ben / ben-demo-password); his browser goes:');
      const loggedIn = await browser.submit(form!.action, {
        ...form!.fields,
        username: 'ben',
        password: 'ben-demo-password',
      });
      show(loggedIn.hops);
      const question = /<p>(Link your [\s\S]*?\?)<\/p>/
        .exec(loggedIn.body)?.[1]
        ?.replace(/<[^>]+>/g, '');
      const confirm = readForm(loggedIn);
      if (
        !reporter.expect(
          confirm !== null && question !== undefined,
          `the community asks before linking: "${question ?? '(no confirmation page)'}"`,
        )
      ) {
        return;
      }
      reporter.detail('ben clicks Confirm; his browser goes:');
      const done = await browser.submit(confirm!.action, {
        ...confirm!.fields,
        decision: 'confirm',
      });
      show(done.hops);
      const callback = done.hops.find((hop) =>
        hop.url.startsWith(`${servers.mock.url}/__mock/connect/callback`),
      );
      const identifier = callback ? new URL(callback.url).searchParams.get('identifier') : null;
      reporter.expect(
        done.status === 200 && identifier === 'member-1002' && /Account connected/.test(done.body),
        `the community signs the callback with identifier=${identifier}; the platform accepts it`,
      );
      const { body: connections } = await servers.client.connections(MEMBERS.ben.id);
      reporter.expect(
        connections.some(
          (link) => link.identifier === 'member-1002' && link.redirectUrl === community.connectUrl,
        ),
        'the platform stored the identifier for this redirect URL',
      );
      const home = await browser.open(`${community.url}/`);
      reporter.expect(
        home.body.includes(`linked to platform member <code>${MEMBERS.ben.id}</code>`),
        `the community's home page shows the link to platform member ${MEMBERS.ben.id}`,
      );
    },
  },
  {
    title: 'ben claims the connect quest: the call carries accounts["svc-connect"]',
    async run(servers, reporter, state) {
      const { body } = await servers.client.claim(state.connectQuestId ?? '-', MEMBERS.ben.id);
      describeClaim(reporter, body);
      const sent = sentBody(body.tasks[0])?.accounts?.['svc-connect'];
      reporter.expect(
        body.status === 'success' && sent === 'member-1002',
        `claimed with accounts["svc-connect"] = ${quote(sent)}`,
      );
    },
  },
  {
    title: 'A new member joins: a webhook delivers JOINED_COMMUNITY to a local receiver',
    async run(servers, reporter) {
      const { client, receiver } = servers;
      const created = await client.createWebhook({
        name: 'Demo receiver',
        uri: receiver.url,
        active: true,
        events: ['JOINED_COMMUNITY'],
      });
      reporter.detail(
        `POST /public/communities/demo/webhooks ${receiver.url} -> ${created.status}`,
      );
      if (!reporter.expect(created.status === 200, `webhook registered: ${created.body.id}`))
        return;
      const webhook = (await client.webhooks()).body.items.find((w) => w.id === created.body.id);
      receiver.useSecret(webhook?.secret ?? '');
      reporter.detail("the receiver (@questkit/hono's webhookEndpoint) takes the webhook's secret");
      const joined = await client.join({ name: 'zoe', email: 'zoe@example.com' });
      const userId = joined.body.user.id;
      reporter.detail(`zoe joins the community -> member ${userId}`);
      const got = await receiver.waitFor(
        (item) => item.event.type === 'JOINED_COMMUNITY' && eventUser(item.event) === userId,
        WEBHOOK_TIMEOUT_MS,
      );
      reporter.expect(
        got.event.type === 'JOINED_COMMUNITY',
        `the receiver checked the secret and handled ${got.event.type} (event ${got.event.id}): ${quote(got.event.data)}`,
      );
      const records = (await client.webhookEvents(created.body.id)).body.items;
      reporter.expect(
        records.length === 1 && records[0]?.status === 'success' && records[0]?.tries === 1,
        `the delivery record reads ${records[0]?.status}, ${records[0]?.tries} try`,
      );
      // At least once: a replay repeats the event id, and the receiver handles it only once.
      const replay = await fetch(
        `${servers.mock.url}/__mock/webhooks/deliveries/${records[0]?.id}/replay`,
        { method: 'POST' },
      );
      const replayed = (await replay.json()) as { deliveries?: { status: string }[] };
      const handled = receiver.received.filter((item) => item.event.id === got.event.id).length;
      reporter.expect(
        replayed.deliveries?.[0]?.status === 'success' && handled === 1,
        `a replay of the delivery is answered 200 and deduplicated: the event was handled ${handled} time`,
      );
    },
  },
  {
    title: 'A conformance run against the shop (Express example)',
    async run(servers, reporter, state) {
      const report = await runConformance({
        url: servers.shop.verifyUrl,
        apiKey: servers.taskKey,
        member: {
          userId: MEMBERS.ada.id,
          communityId: DEMO.communityId,
          subdomain: DEMO.subdomain,
          questId: state.newsletterQuestId,
          // Every account of hers, so the probes of nested fields (discord.id, ...) run too.
          accounts: MEMBERS.ada.accounts,
        },
        expect: 'pass',
      });
      const { summary } = report;
      reporter.detail(`questkit check ${report.url} (as ada, expecting her claim to pass)`);
      const verdicts = Object.entries(summary.platform).map(
        ([check, verdict]) => `${check} ${verdict}`,
      );
      reporter.detail(`platform checks: ${verdicts.join(', ')}`);
      for (const check of report.checks.filter((c) => c.status === 'fail' || c.status === 'warn')) {
        reporter.detail(
          `${check.status.toUpperCase()} ${check.id}: ${check.findings.map((f) => f.message).join('; ')}`,
        );
      }
      reporter.expect(
        summary.ok,
        `${summary.total} checks: ${summary.passed} passed, ${summary.warned} warned, ${summary.failed} failed, ${summary.skipped} skipped`,
      );
    },
  },
];

/** The end of the story: whether every step behaved, and the quests it created. */
export interface StoryResult extends StoryState {
  ok: boolean;
}

/**
 * Tells the demo's story against running servers, step by step. A step that throws counts as
 * not behaving; the story goes on.
 *
 * @example
 * const servers = await startDemoServers();
 * const { ok } = await runStory(servers, createReporter((t) => process.stdout.write(t), false));
 */
export async function runStory(servers: DemoServers, reporter: Reporter): Promise<StoryResult> {
  const state: StoryState = {};
  let failed = 0;
  for (const step of STEPS) {
    reporter.step(step.title);
    try {
      await step.run(servers, reporter, state);
    } catch (error) {
      reporter.expect(
        false,
        `the step stopped: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (!reporter.stepOk) failed += 1;
  }
  reporter.line();
  reporter.line(
    failed === 0
      ? `All ${STEPS.length} steps behaved as expected.`
      : `${failed} of ${STEPS.length} steps did not behave as expected.`,
  );
  return { ...state, ok: failed === 0 };
}

/** How many steps the story has. */
export const STORY_STEPS = STEPS.length;
