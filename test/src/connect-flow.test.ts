import { runConformance } from '@questkit/conformance';
import { createBrowser, readForm } from '@questkit/demo';
import {
  type Community,
  createCommunity,
  type RunningServer,
  startServer,
} from '@questkit/example-connect';
import { DEMO } from '@questkit/mock-platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBERS, startPlatform, type TestPlatform } from './platform.testkit.js';

const TASK_KEY = 'connect-e2e-task-key';

let mock: TestPlatform;
let app: RunningServer;
let community: Community;
let secret: string;
let questId: string;

beforeAll(async () => {
  mock = await startPlatform();
  const rotated = await mock.client.rotateConnectSecret();
  expect(rotated.status).toBe(200);
  secret = rotated.body.secret;
  community = createCommunity();
  app = await startServer({
    apiKey: TASK_KEY,
    connectSecret: secret,
    allowedCallbackOrigins: [mock.server.url],
    community,
    port: 0,
  });
  questId = await createConnectQuest();
});

/** A once-only quest whose task identifies members by the connect flow of the example. */
async function createConnectQuest(): Promise<string> {
  const created = await mock.client.createQuest({
    categoryId: DEMO.modules.partners,
    name: 'Connect your Acme Builders account',
    published: true,
    recurrence: 'once',
    conditionOperator: 'AND',
    tasks: [
      {
        type: 'api',
        settings: {
          endpoint: app.verifyUrl,
          redirectUrl: app.connectUrl,
          apiKey: TASK_KEY,
          identifications: ['svc-connect'],
        },
      },
    ],
  });
  expect(created.status).toBe(200);
  return created.body.id;
}
afterAll(async () => {
  await app?.close();
  await mock?.close();
});

/** A member's browser goes through the whole flow, logging in on the community when asked. */
async function connect(svcUserId: string, login: { username: string; password: string }) {
  const browser = createBrowser();
  const arrival = await browser.open(mock.client.connectStartUrl(questId, svcUserId));
  const form = readForm(arrival);
  if (!form) return { arrival, done: arrival };
  const loggedIn = await browser.submit(form.action, { ...form.fields, ...login });
  // The community asks before it links: the member confirms on its page.
  const confirm = readForm(loggedIn);
  if (!confirm) return { arrival, loggedIn, done: loggedIn, browser };
  const done = await browser.submit(confirm.action, { ...confirm.fields, decision: 'confirm' });
  return { arrival, loggedIn, done, browser };
}

describe('the connect example, driven by the mock platform over real HTTP', () => {
  it("passes the platform's automatic checks at quest creation", async () => {
    const checks = await mock.client.endpointChecks(questId, 12_000);
    expect(checks[0]).toMatchObject({ state: 'done', passed: true, status: 400 });
  });

  it('refuses a claim before the member connected: the account is missing', async () => {
    const { body } = await mock.client.claim(questId, MEMBERS.ben);
    expect(body).toMatchObject({
      status: 'failed',
      reason: 'account-not-linked',
      missingAccounts: ['svc-connect'],
    });
    expect(body.message).toContain(new URL(app.url).host);
  });

  it('links a member through redirect, login, signed callback, and the claim then succeeds', async () => {
    const { arrival, loggedIn, done, browser } = await connect(MEMBERS.ben, {
      username: 'ben',
      password: 'ben-demo-password',
    });
    // Platform -> community (signed) -> community login page.
    const [toCommunity, toLogin] = arrival.hops;
    expect(toCommunity).toMatchObject({ status: 302 });
    const redirect = new URL(toCommunity!.location!);
    expect(redirect.origin + redirect.pathname).toBe(app.connectUrl);
    expect(redirect.searchParams.get('svcUserId')).toBe(MEMBERS.ben);
    expect(redirect.searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(toLogin).toMatchObject({ status: 302 });
    expect(new URL(toLogin!.location!).pathname).toBe('/login');
    expect(arrival.status).toBe(200);

    // Login -> back to /connect with the session cookie -> the confirmation page.
    expect(loggedIn!.hops.map((hop) => hop.status)).toEqual([303, 200]);
    expect(loggedIn!.hops[0]!.cookiesSet).toContain('sid');
    expect(loggedIn!.body).toContain('Link your Acme Builders account <strong>ben</strong>');
    // Confirm -> signed callback -> platform.
    expect(done.hops.map((hop) => hop.status)).toEqual([303, 200]);
    const callback = new URL(done.hops[1]!.url);
    expect(callback.origin).toBe(mock.server.url);
    expect(callback.searchParams.get('identifier')).toBe('member-1002');
    expect(done.body).toContain('Account connected');

    const { body: connections } = await mock.client.connections(MEMBERS.ben);
    expect(connections).toContainEqual(
      expect.objectContaining({ identifier: 'member-1002', redirectUrl: app.connectUrl }),
    );
    expect((await community.linkOf('member-1002'))?.svcUserId).toBe(MEMBERS.ben);
    const home = await browser!.open(`${app.url}/`);
    expect(home.body).toContain(`linked to platform member <code>${MEMBERS.ben}</code>`);

    const { body } = await mock.client.claim(questId, MEMBERS.ben);
    expect(body).toMatchObject({ status: 'success', reason: 'claimed' });
    expect(JSON.parse(body.tasks[0]?.request?.body ?? '{}').accounts).toEqual({
      'svc-connect': 'member-1002',
    });
    expect(body.message).toBe('Your Acme Builders account ben is linked. Quest complete.');
  });

  it('fails the claim when the community account was since linked to another member', async () => {
    // ada connects with ben's community login: the community now links member-1002 to ada.
    const { done } = await connect(MEMBERS.ada, { username: 'ben', password: 'ben-demo-password' });
    expect(done.status).toBe(200);
    // ben claimed the first quest (once only) above; a second quest of the same redirect URL
    // reuses his connection.
    const { body } = await mock.client.claim(await createConnectQuest(), MEMBERS.ben);
    expect(body).toMatchObject({ status: 'failed', reason: 'not-verified' });
    expect(body.message).toMatch(/linked to another platform member/);
    expect(JSON.parse(body.tasks[0]?.request?.body ?? '{}').requestId).toBe(body.requestId);
  });

  it('stores nothing when the community answers with a tampered callback', async () => {
    const browser = createBrowser();
    const arrival = await browser.open(mock.client.connectStartUrl(questId, MEMBERS.gus));
    const form = readForm(arrival)!;
    const loggedIn = await browser.submit(form.action, {
      ...form.fields,
      username: 'ada',
      password: 'ada-demo-password',
    });
    const confirm = readForm(loggedIn)!;
    const done = await browser.submit(confirm.action, { ...confirm.fields, decision: 'confirm' });
    const signed = done.hops.find((hop) => hop.url.startsWith(`${mock.server.url}/`))!;
    const tampered = signed.url.replace('identifier=member-1001', 'identifier=member-9999');
    const before = (await mock.client.connections(MEMBERS.gus)).body.length;
    // The honest callback went through; a tampered one, and a replay of the honest one, must not.
    expect(before).toBe(1);
    expect((await browser.open(tampered)).status).toBe(400);
    const replay = await browser.open(signed.url);
    expect(replay.status).toBe(400);
    expect(replay.body).toContain('already used');
    expect((await mock.client.connections(MEMBERS.gus)).body).toHaveLength(1);
  });

  it('passes the conformance runner, connect checks included', async () => {
    // The runner's member: gus, linked to the community's member-1001 (ada's login).
    await connect(MEMBERS.gus, { username: 'ada', password: 'ada-demo-password' });
    expect((await community.linkOf('member-1001'))?.svcUserId).toBe(MEMBERS.gus);
    const report = await runConformance({
      url: app.verifyUrl,
      apiKey: TASK_KEY,
      member: { userId: MEMBERS.gus, accounts: { 'svc-connect': 'member-1001' } },
      expect: 'pass',
      connect: {
        url: app.connectUrl,
        secret,
        callback: `${mock.server.url}/__mock/connect/callback`,
      },
    });
    const failed = report.checks.filter((check) => check.status === 'fail');
    expect(failed.map((check) => `${check.id}: ${check.findings[0]?.message}`)).toEqual([]);
    expect(report.summary.ok).toBe(true);
    const connectChecks = report.checks.filter((check) => check.id.startsWith('connect.'));
    expect(connectChecks.map((check) => check.id).sort()).toEqual([
      'connect.callback',
      'connect.signed-redirect',
      'connect.tampered-redirect',
      'connect.unsigned-redirect',
    ]);
    expect(
      connectChecks.filter((c) => c.id !== 'connect.callback').every((c) => c.status === 'pass'),
    ).toBe(true);
  });
});
