import {
  createManualClock,
  createMockPlatform,
  DEMO,
  type MockServer,
  startMockServer,
} from '@questkit/mock-platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    const page = await fetch(await platformRedirect(), {
      headers: { cookie: session, accept: 'text/html' },
      redirect: 'manual',
    });
    expect(page.status).toBe(200);
    const nonce = /qk_connect_nonce=([^;]+)/.exec(page.headers.get('set-cookie') ?? '')?.[1];
    const html = await page.text();
    const field = (name: string) =>
      new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? '';
    const confirmed = await fetch(`${app.origin}/connect`, {
      method: 'POST',
      headers: {
        cookie: `${session}; qk_connect_nonce=${nonce}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        state: field('state'),
        confirmation: field('confirmation'),
        decision: 'confirm',
      }).toString(),
      redirect: 'manual',
    });
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
  });
});
