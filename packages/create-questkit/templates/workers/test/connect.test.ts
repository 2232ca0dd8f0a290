import {
  createManualClock,
  createMockPlatform,
  DEMO,
  type MockServer,
  startMockServer,
} from '@questkit/mock-platform';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sealSession } from '../src/session.js';
import { TEST_ENV } from './env.js';
import { startApp } from './start.js';

// The identity-connect flow as the platform runs it: the mock platform signs the redirect, the
// member confirms on this app's page, and the mock checks the signed callback and stores the link.

let mock: MockServer;
let app: Awaited<ReturnType<typeof startApp>>;
let questId: string;
const MEMBER = DEMO.users.admin;

beforeAll(async () => {
  mock = await startMockServer(
    createMockPlatform({ clock: createManualClock(), rateLimit: false, endpointChecks: false }),
    { port: 0 },
  );
  app = await startApp(TEST_ENV);
  const created = await fetch(`${mock.url}/public/communities/demo/quests`, {
    method: 'POST',
    headers: { 'x-api-key': DEMO.apiKeys.readWrite, 'content-type': 'application/json' },
    body: JSON.stringify({
      categoryId: DEMO.modules.community,
      name: 'Connect your account',
      published: true,
      recurrence: 'once',
      conditionOperator: 'AND',
      tasks: [
        {
          type: 'api',
          settings: {
            endpoint: `${app.origin}/verify`,
            redirectUrl: `${app.origin}/connect`,
            apiKey: TEST_ENV.QUEST_API_KEY,
            identifications: ['svc-connect'],
          },
        },
      ],
    }),
  });
  expect(created.status).toBe(200);
  questId = ((await created.json()) as { id: string }).id;
});
afterAll(async () => {
  await app?.close();
  await mock?.close();
});

/** The signed redirect the platform sends the member to, as the mock builds it. */
async function platformRedirect(): Promise<string> {
  const start = await fetch(
    `${mock.url}/__mock/connect/start?subdomain=demo&questId=${questId}&userId=${MEMBER}`,
    { redirect: 'manual' },
  );
  expect(start.status).toBe(302);
  return start.headers.get('location')!;
}

describe('the connect flow, driven by the mock platform', () => {
  it('sends a visitor who is not logged in to the login page', async () => {
    const answer = await fetch(await platformRedirect(), { redirect: 'manual' });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toMatch(/^\/login\?returnTo=/);
  });

  it('links a logged-in member once confirmed, and the platform stores the link', async () => {
    const session = `session=${await sealSession('member-1', TEST_ENV.SESSION_SECRET!)}`;
    await confirmAs(session, await platformRedirect());
  });

  it('signs a member in on /login, back to the confirmation, as in a browser', async () => {
    const toLogin = await fetch(await platformRedirect(), { redirect: 'manual' });
    // The browser keeps the flow's cookie from this answer and sends it back after the login.
    const flowCookie = (toLogin.headers.get('set-cookie') ?? '').split(';')[0]!;
    const loginPage = await fetch(new URL(toLogin.headers.get('location')!, app.origin));
    const returnTo = /name="returnTo" value="([^"]+)"/.exec(await loginPage.text())?.[1] ?? '';
    expect(returnTo).toMatch(/^\/connect\?/);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    await postForm(`${app.origin}/login`, { member: 'member-1', returnTo: htmlText(returnTo) });
    const printed = log.mock.calls.map((args) => String(args[0])).join('\n');
    log.mockRestore();
    const code = /sign-in code for member-1: ([0-9a-f]{32})/.exec(printed)?.[1] ?? '';
    const signedIn = await postForm(`${app.origin}/login`, {
      member: 'member-1',
      code,
      returnTo: htmlText(returnTo),
    });
    expect(signedIn.status).toBe(303);
    const session = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const back = new URL(signedIn.headers.get('location')!, app.origin).href;
    await confirmAs(session, back, flowCookie);
  });
});

const htmlText = (html: string) =>
  html.replace(/&#(\d+);/g, (_, code) => String.fromCharCode(code));

const postForm = (url: string, fields: Record<string, string>, cookie = '') =>
  fetch(url, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });

/** Opens the confirmation at `url` with `session` (and the flow's cookie a browser kept), confirms, and checks the platform stored the link. */
async function confirmAs(session: string, url: string, flowCookie?: string) {
  const page = await fetch(url, {
    headers: { cookie: flowCookie ? `${session}; ${flowCookie}` : session, accept: 'text/html' },
    redirect: 'manual',
  });
  expect(page.status).toBe(200);
  const nonce = /qk_connect_nonce=([^;]+)/.exec(
    page.headers.get('set-cookie') ?? flowCookie ?? '',
  )?.[1];
  const html = await page.text();
  const field = (name: string) =>
    new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? '';
  const confirmed = await postForm(
    `${app.origin}/connect`,
    { state: field('state'), confirmation: field('confirmation'), decision: 'confirm' },
    `${session}; qk_connect_nonce=${nonce}`,
  );
  expect(confirmed.status).toBe(303);
  const callback = await fetch(confirmed.headers.get('location')!, {
    headers: { accept: 'application/json' },
  });
  expect(await callback.json()).toMatchObject({ connected: true });
  const connections = await fetch(
    `${mock.url}/__mock/communities/demo/users/${MEMBER}/connections`,
  );
  expect(await connections.json()).toContainEqual(
    expect.objectContaining({ identifier: 'member-1', redirectUrl: `${app.origin}/connect` }),
  );
}
