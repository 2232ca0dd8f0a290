import type { ProjectOptions } from '../options.js';
import { sampleClaim } from './quest.js';

/** Where the endpoints are served: `/api/...` in Next.js, the root elsewhere. */
export function paths(options: ProjectOptions) {
  const base = options.framework === 'nextjs' ? '/api' : '';
  return { verify: `${base}/verify`, connect: `${base}/connect`, webhooks: `${base}/webhooks` };
}

/** Where the quest file is, from `test/`: `lib/` in Next.js, `src/` elsewhere. */
const questModule = (options: ProjectOptions) =>
  options.framework === 'nextjs' ? '../lib/quest' : '../src/quest.js';

/** `test/env.ts`: the environment every test starts the app with (test values, not secrets). */
export function testEnvFile(options: ProjectOptions): string {
  const lines = ["  QUEST_API_KEY: 'test-task-key',"];
  if (options.connect) {
    lines.push(
      "  // The mock platform's demo community signs its connect redirects with this secret.",
      '  CONNECT_SECRET: DEMO.connectSecret,',
      "  SESSION_SECRET: 'test-session-secret-0123456789abcdef',",
    );
  }
  if (options.webhooks) lines.push("  WEBHOOK_SECRET: 'whsec_test',");
  return `${options.connect ? "import { DEMO } from '@questkit/mock-platform';\n\n" : ''}/** The environment the tests start the app with: test values, not secrets. */
export const TEST_ENV: Record<string, string> = {
${lines.join('\n')}
};
`;
}

/** `test/endpoint.test.ts`: the platform's checks over real HTTP, and the refusal to start without a key. */
export function endpointTest(options: ProjectOptions): string {
  const p = paths(options);
  const claim = sampleClaim(options.requires);
  const connect = options.connect
    ? `\n      connect: { url: \`\${app.origin}${p.connect}\`, secret: TEST_ENV.CONNECT_SECRET! },`
    : '';
  return `import { assertConformant } from '@questkit/conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUIRES } from '${questModule(options)}';
import { TEST_ENV } from './env${options.framework === 'nextjs' ? '' : '.js'}';
import { startApp } from './start${options.framework === 'nextjs' ? '' : '.js'}';

let app: Awaited<ReturnType<typeof startApp>>;
beforeAll(async () => {
  app = await startApp(TEST_ENV);
});
afterAll(() => app?.close());

const claim = (accounts: Record<string, unknown>, userId = '${claim.userId}') => ({
  userId,
  communityId: 'community-1',
  subdomain: 'demo',
  questId: 'quest-1',
  requestId: 'request-1',
  accounts,
});

const post = async (body: unknown, key = TEST_ENV.QUEST_API_KEY!) => {
  const answer = await fetch(\`\${app.origin}${p.verify}\`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as { message: string } };
};

describe('the verification endpoint', () => {
  it("passes the platform's checks, judged by questkit's conformance battery", async () => {
    await assertConformant(\`\${app.origin}${p.verify}\`, {
      apiKey: TEST_ENV.QUEST_API_KEY!,
      identifications: [...REQUIRES],${connect}
      timeoutMs: 5_000,
      burst: 4,
      samples: 4,
    });
  });

  it('completes the quest for a member who did it, and tells another what to do', async () => {
    const done = await post(claim(${JSON.stringify(claim.accounts)}));
    expect(done).toEqual({ status: 200, body: { message: 'Thanks! Quest complete.' } });
    const other = await post(claim(${JSON.stringify(otherAccounts(claim.accounts))}, 'member-2'));
    expect(other.status).toBe(400);
    expect(other.body.message).toMatch(/claim again/);
  });

  it('refuses a claim with a wrong key', async () => {
    const refused = await post(claim(${JSON.stringify(claim.accounts)}), 'not-the-key');
    expect(refused.status).toBe(400);
  });
});

describe('safe as written', () => {
  it('listens on the loopback interface', () => {
    expect(new URL(app.origin).hostname).toBe('127.0.0.1');
  });

  it('refuses to start without QUEST_API_KEY', async () => {
    await expect(startApp({ ...TEST_ENV, QUEST_API_KEY: '' })).rejects.toThrow(/QUEST_API_KEY/);
  });
});
`;
}

/** Accounts of a member who did not do the quest: every sample value changed. */
function otherAccounts(accounts: Record<string, unknown>): Record<string, unknown> {
  const other: Record<string, unknown> = {};
  for (const [method, value] of Object.entries(accounts)) {
    other[method] =
      typeof value === 'string'
        ? method === 'wallet'
          ? '0x0000000000000000000000000000000000000001'
          : method === 'email'
            ? 'ben@example.com'
            : 'member-2'
        : { ...(value as object), id: '1' };
  }
  return other;
}

/** `test/connect.test.ts`: the connect flow as the mock platform runs it, over real HTTP. */
export function connectTest(options: ProjectOptions): string {
  const p = paths(options);
  const ext = options.framework === 'nextjs' ? '' : '.js';
  const sessionModule = options.framework === 'nextjs' ? '../lib/session' : `../src/session.js`;
  return `import {
  createManualClock,
  createMockPlatform,
  DEMO,
  type MockServer,
  startMockServer,
} from '@questkit/mock-platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealSession } from '${sessionModule}';
import { TEST_ENV } from './env${ext}';
import { startApp } from './start${ext}';

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
  const created = await fetch(\`\${mock.url}/public/communities/demo/quests\`, {
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
            endpoint: \`\${app.origin}${p.verify}\`,
            redirectUrl: \`\${app.origin}${p.connect}\`,
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
    \`\${mock.url}/__mock/connect/start?subdomain=demo&questId=\${questId}&userId=\${MEMBER}\`,
    { redirect: 'manual' },
  );
  expect(start.status).toBe(302);
  return start.headers.get('location')!;
}

describe('the connect flow, driven by the mock platform', () => {
  it('sends a visitor who is not logged in to the login page', async () => {
    const answer = await fetch(await platformRedirect(), { redirect: 'manual' });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toMatch(/^\\/login\\?returnTo=/);
  });

  it('links a logged-in member once confirmed, and the platform stores the link', async () => {
    const session = \`session=\${await sealSession('member-1', TEST_ENV.SESSION_SECRET!)}\`;
    const page = await fetch(await platformRedirect(), {
      headers: { cookie: session, accept: 'text/html' },
      redirect: 'manual',
    });
    expect(page.status).toBe(200);
    const nonce = /qk_connect_nonce=([^;]+)/.exec(page.headers.get('set-cookie') ?? '')?.[1];
    const html = await page.text();
    const field = (name: string) => new RegExp(\`name="\${name}" value="([^"]+)"\`).exec(html)?.[1] ?? '';
    const confirmed = await fetch(\`\${app.origin}${p.connect}\`, {
      method: 'POST',
      headers: {
        cookie: \`\${session}; qk_connect_nonce=\${nonce}\`,
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
      \`\${mock.url}/__mock/communities/demo/users/\${MEMBER}/connections\`,
    );
    expect(await connections.json()).toContainEqual(
      expect.objectContaining({ identifier: 'member-1', redirectUrl: \`\${app.origin}${p.connect}\` }),
    );
  });
});
`;
}

/** `test/webhooks.test.ts`: a delivery from the mock platform, with the webhook's own secret. */
export function webhooksTest(options: ProjectOptions): string {
  const p = paths(options);
  const ext = options.framework === 'nextjs' ? '' : '.js';
  return `import {
  createManualClock,
  createMockPlatform,
  DEMO,
  type MockServer,
  startMockServer,
} from '@questkit/mock-platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENV } from './env${ext}';
import { startApp } from './start${ext}';

// Webhook deliveries as the platform makes them: the mock creates the webhook (and its secret),
// the app receives a JOINED_COMMUNITY delivery with it, and the mock records the outcome.

let mock: MockServer;
let app: Awaited<ReturnType<typeof startApp>>;
const publicApi = (path: string, init: RequestInit = {}) =>
  fetch(\`\${mock.url}/public/communities/demo\${path}\`, {
    ...init,
    headers: { 'x-api-key': DEMO.apiKeys.readWrite, 'content-type': 'application/json' },
  });

beforeAll(async () => {
  mock = await startMockServer(
    createMockPlatform({ clock: createManualClock(), rateLimit: false, endpointChecks: false }),
    { port: 0 },
  );
  // The webhook first, so the app starts with the secret the platform generated for it.
  const created = await publicApi('/webhooks', {
    method: 'POST',
    body: JSON.stringify({
      name: 'test',
      uri: 'http://127.0.0.1:9/webhooks',
      active: false,
      events: ['JOINED_COMMUNITY'],
    }),
  });
  const { id } = (await created.json()) as { id: string };
  const list = (await (await publicApi('/webhooks')).json()) as {
    items: { id: string; secret: string }[];
  };
  const secret = list.items.find((webhook) => webhook.id === id)!.secret;
  app = await startApp({ ...TEST_ENV, WEBHOOK_SECRET: secret });
  const updated = await publicApi(\`/webhooks/\${id}\`, {
    method: 'PATCH',
    body: JSON.stringify({ uri: \`\${app.origin}${p.webhooks}\`, active: true }),
  });
  expect(updated.status).toBe(200);
});
afterAll(async () => {
  await app?.close();
  await mock?.close();
});

describe('the webhook receiver', () => {
  it('accepts a delivery from the platform', async () => {
    const joined = await fetch(\`\${mock.url}/__mock/communities/demo/members\`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Newcomer' }),
    });
    expect(joined.status).toBe(200);
    const { deliveries } = (await joined.json()) as { deliveries: { status: string }[] };
    expect(deliveries.map((delivery) => delivery.status)).toEqual(['success']);
  });

  it('refuses a delivery carrying another secret', async () => {
    const forged = await fetch(\`\${app.origin}${p.webhooks}\`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: 'event-1',
        type: 'JOINED_COMMUNITY',
        createdAt: new Date().toISOString(),
        communityId: 'community-1',
        subdomain: 'demo',
        data: { userId: 'u', name: 'n', referrerId: null, joinedAt: new Date().toISOString() },
        secret: 'whsec_guessed',
      }),
    });
    expect(forged.status).not.toBe(200);
  });
});
`;
}
