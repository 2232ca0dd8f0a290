import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MESSAGES } from '@questkit/core';
import { explainRefusedDelivery } from '@questkit/core/api';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../clock.js';
import { createMockPlatform } from '../platform.js';
import { DEMO } from '../seed/demo-ids.js';
import { type MockServer, startMockServer } from '../server.js';

// The dashboard in Debian's Chromium (playwright-core, no browser download), at 1280 and 390 px:
// a claim refused by the endpoint's key reads apart from a member who did not qualify, and a
// failed delivery says why in its row. The endpoint is questkit's answer to a wrong key for one
// quest (its key is not the task's) and "Subscribe first." for the other; the receiver wants a
// signature header, so every delivery is refused with 401.

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '../../artifacts');
const WAIT = { timeout: 10_000 };

let mock: MockServer;
let endpoint: Server;
let receiver: Server;
let context: BrowserContext;
let page: Page;
let profile: string;
const requestIds = { key: '', member: '' };

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function api(method: string, path: string, body: unknown) {
  const answer = await fetch(`${mock.url}${path}`, {
    method,
    headers: { 'x-api-key': DEMO.apiKeys.readWrite, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(answer.status, `${method} ${path}`).toBe(200);
  const text = await answer.text();
  return (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
}

/** Creates a quest whose API task calls `path` on the endpoint with `apiKey`, and claims it as ada. */
async function claimOf(name: string, endpointUrl: string, apiKey: string) {
  const quest = await api('POST', '/public/communities/demo/quests', {
    categoryId: DEMO.modules.community,
    name,
    published: true,
    recurrence: 'daily',
    conditionOperator: 'AND',
    tasks: [{ type: 'api', settings: { endpoint: `${endpointUrl}/verify`, apiKey } }],
  });
  const claim = await api('POST', `/__mock/communities/demo/quests/${quest.id}/claims`, {
    userId: DEMO.users.admin,
  });
  expect(claim.reason).toBe('not-verified');
  return claim.requestId as string;
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  mock = await startMockServer(
    createMockPlatform({
      clock: createManualClock('2025-06-01T12:00:00.000Z'),
      rateLimit: false,
      endpointChecks: false,
    }),
    { port: 0 },
  );
  endpoint = createServer((request, response) => {
    request.resume();
    const message =
      request.headers['x-api-key'] === 'endpoint-key'
        ? 'Subscribe first.'
        : DEFAULT_MESSAGES.badKey;
    response.writeHead(400, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ message }));
  });
  receiver = createServer((request, response) => {
    request.resume();
    response.writeHead(401, { 'content-type': 'application/json' });
    response.end('{"error":"Missing X-Signature header"}');
  });
  const endpointUrl = await listen(endpoint);
  const receiverUrl = await listen(receiver);
  for (const id of Object.values(DEMO.webhooks)) {
    await api('PATCH', `/public/communities/demo/webhooks/${id}`, { active: false });
  }
  await api('POST', '/public/communities/demo/webhooks', {
    name: 'HMAC receiver',
    uri: `${receiverUrl}/hooks`,
    active: true,
    events: ['QUEST_FAILED'],
  });
  requestIds.member = await claimOf('Newsletter quest', endpointUrl, 'endpoint-key');
  requestIds.key = await claimOf('Wrong key quest', endpointUrl, 'not-the-endpoint-key');

  profile = mkdtempSync(join(tmpdir(), 'questkit-dashboard-why-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(10_000);
  page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${mock.url}/__mock/dashboard`);
}, 60_000);

afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await mock?.close();
  for (const server of [endpoint, receiver]) {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
});

describe('the dashboard says why', { timeout: 120_000 }, () => {
  for (const width of [1280, 390]) {
    it(`marks a claim refused by the key apart from a member who did not qualify, at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 900 });
      const key = page.locator(`#claims tr[data-request-id="${requestIds.key}"]`);
      const member = page.locator(`#claims tr[data-request-id="${requestIds.member}"]`);
      await key.waitFor(WAIT);
      expect(await key.getAttribute('data-outcome')).toBe('key-refused');
      expect(await member.getAttribute('data-outcome')).toBe('not-verified');
      expect(await key.locator('td.outcome .badge').textContent()).toBe('Key refused');
      expect(await member.locator('td.outcome .badge').textContent()).toBe('Not verified');
      const reason = key.locator('td.outcome .reason');
      expect(await reason.textContent()).toContain('the endpoint refused the key, not the member');
      await key.scrollIntoViewIfNeeded();
      expect(await reason.isVisible()).toBe(true);
      // Told apart at a glance: not the same colours as an ordinary "not verified".
      const look = (row: typeof key) =>
        row.locator('td.outcome .badge').evaluate((node) => {
          const style = (
            globalThis as unknown as { getComputedStyle(n: unknown): Record<string, string> }
          ).getComputedStyle(node);
          return `${style.color} on ${style.backgroundColor}`;
        });
      expect(await look(key)).not.toBe(await look(member));
      // The outcome filter knows it.
      await page.getByLabel('Outcome').selectOption('key-refused');
      await expect.poll(() => page.locator('#claims tr').count(), WAIT).toBe(1);
      await page.getByLabel('Outcome').selectOption('');
    });

    it(`shows a failed delivery's reason in its row, without Details, at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await page.getByRole('button', { name: 'Refresh' }).first().click();
      const failed = page.locator('#delivery-rows tr', { hasText: 'failed' }).first();
      await failed.waitFor(WAIT);
      const last = failed.locator('td.last-try');
      await expect.poll(() => last.textContent(), WAIT).toContain('HTTP 401');
      expect(await last.textContent()).toContain('answered {"error":"Missing X-Signature header"}');
      const why = last.locator('.attempt-explanation');
      expect(await why.textContent()).toBe(explainRefusedDelivery({ status: 401 }));
      // The rows render again on each refresh: a scroll that meets a replaced row tries again.
      await expect
        .poll(async () => {
          await why.scrollIntoViewIfNeeded().catch(() => undefined);
          return why.isVisible();
        }, WAIT)
        .toBe(true);
      expect(await page.locator('#delivery-detail').isHidden()).toBe(true);
      // Readable at this width: the page itself does not scroll sideways.
      const scroll = await page.evaluate(() => {
        const view = globalThis as unknown as {
          innerWidth: number;
          document: { documentElement: { scrollWidth: number } };
        };
        return view.document.documentElement.scrollWidth - view.innerWidth;
      });
      expect(scroll).toBeLessThanOrEqual(0);
      await page.screenshot({
        path: join(ARTIFACTS, `dashboard-why-${width}.png`),
        fullPage: true,
      });
    });
  }
});
