import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../clock.js';
import { createMockPlatform } from '../platform.js';
import { DEMO } from '../seed/demo-ids.js';
import { type MockServer, startMockServer } from '../server.js';

// The dashboard in Debian's Chromium, driven by playwright-core (no browser download), against a
// mock on a manual clock, a verification endpoint that answers 200, and a webhook receiver that
// always answers 500 so deliveries fail and retry.

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '../../artifacts');
const WAIT = { timeout: 10_000 };

let mock: MockServer;
let endpoint: Server;
let receiver: Server;
let context: BrowserContext;
let page: Page;
let profile: string;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${mock.url}${path}`, {
    method,
    headers: { 'x-api-key': DEMO.apiKeys.readWrite, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} ${path}`).toBe(200);
  const text = await response.text();
  return text === '' ? null : JSON.parse(text);
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (.ci/run does)`);
  }
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
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"message":"Verified by the dashboard test"}');
  });
  receiver = createServer((request, response) => {
    request.resume();
    response.writeHead(500).end();
  });
  const endpointUrl = await listen(endpoint);
  const receiverUrl = await listen(receiver);
  // Only this test's webhook: the seeded ones point at a port nobody listens on.
  for (const id of Object.values(DEMO.webhooks)) {
    await api('PATCH', `/public/communities/demo/webhooks/${id}`, { active: false });
  }
  await api('POST', '/public/communities/demo/webhooks', {
    name: 'Dashboard test receiver',
    uri: `${receiverUrl}/hooks`,
    active: true,
    events: ['JOINED_COMMUNITY', 'QUEST_CLAIMED'],
  });
  await api('POST', '/public/communities/demo/quests', {
    categoryId: DEMO.modules.community,
    name: 'Dashboard quest',
    published: true,
    recurrence: 'daily',
    conditionOperator: 'AND',
    tasks: [{ type: 'api', settings: { endpoint: `${endpointUrl}/verify`, apiKey: 'dash-key' } }],
  });

  profile = mkdtempSync(join(tmpdir(), 'questkit-dashboard-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 900 },
  });
  // Every wait is bounded: a step that cannot happen fails with what it waited for.
  context.setDefaultTimeout(10_000);
  page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${mock.url}/__mock/dashboard`);
  await page.getByText('Live: new calls appear here').waitFor(WAIT);
}, 60_000);

afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  for (const server of [endpoint, receiver]) {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
  await mock?.close();
});

describe('the dashboard in Chromium', { timeout: 30_000 }, () => {
  it('adds a member, then finds them by Discord handle', async () => {
    await page.getByLabel('Name', { exact: true }).fill('zoe');
    await page.getByLabel('Discord id').fill('123456789012345678');
    await page.getByLabel('Discord handle').fill('zoe.dashboard');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByText(/^Added zoe/).waitFor(WAIT);
    await page.getByLabel(/Find a member/).fill('ZOE.dashboard');
    await page.getByRole('button', { name: 'Search' }).click();
    const result = page.locator('#member-results li', { hasText: 'zoe.dashboard' });
    await result.waitFor(WAIT);
    expect(await page.locator('#member-results li').count()).toBe(1);
  });

  it('claims a quest as a member; the call appears live with its three checks', async () => {
    await page.getByLabel(/Find a member/).fill('ada.lovelace');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: 'Select ada' }).click();
    await page.getByText(`Selected member: ada (${DEMO.users.admin})`).waitFor(WAIT);
    await page.getByRole('button', { name: 'Claim as selected member: Dashboard quest' }).click();
    const outcome = page.locator('#claim-outcome');
    await outcome.getByText('Verified by the dashboard test').waitFor(WAIT);
    const requestId = (await outcome.locator('code').textContent()) ?? '';
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    // No reload: the row came over the event stream.
    const row = page.locator(`#calls tr[data-request-id="${requestId}"]`);
    await row.waitFor(WAIT);
    await expect.poll(() => row.locator('.pass').count(), WAIT).toBe(4);
    expect(await row.textContent()).toContain('Dashboard quest');
    for (const check of ['response_time', 'message_format', 'status_code']) {
      expect(await row.textContent()).toContain(check);
    }
    // The detail: headers with the key masked, the body, the answer, the curl.
    await row.getByRole('button').click();
    const headers = (await page.locator('#call-headers').textContent()) ?? '';
    expect(headers).not.toContain('dash-key');
    expect(await page.locator('#call-curl').textContent()).toContain('$QUEST_API_KEY');
    expect(await page.locator('#call-answer').textContent()).toContain('200');
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-1280.png'), fullPage: true });
  });

  it('opens a failed delivery, advances the clock and sees the retry', async () => {
    await page.getByRole('button', { name: 'Refresh' }).first().click();
    const failed = page.locator('#delivery-rows tr', { hasText: 'failed' }).first();
    await failed.waitFor(WAIT);
    await failed.getByRole('button', { name: 'Details' }).click();
    await expect.poll(() => page.locator('#delivery-attempts li').count(), WAIT).toBe(1);
    await page.getByLabel('Advance by').selectOption({ label: '1 day' });
    await page.getByRole('button', { name: 'Advance' }).click();
    await page.getByText(/retries ran/).waitFor(WAIT);
    await expect.poll(() => page.locator('#delivery-attempts li').count(), WAIT).toBeGreaterThan(1);
    expect(await page.locator('#delivery-attempts').textContent()).toContain('HTTP 500');
  });

  it('replays a delivery as a new one', async () => {
    const before = await page.locator('#delivery-rows tr').count();
    await page.locator('#delivery-rows tr').first().getByRole('button', { name: 'Replay' }).click();
    await page.getByText(/^Replayed as /).waitFor(WAIT);
    await expect.poll(() => page.locator('#delivery-rows tr').count(), WAIT).toBe(before + 1);
  });

  it('shows the connect associations of a member and a link to start the flow as them', async () => {
    await page.getByLabel(/Find a member/).fill('ada.lovelace');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: 'Select ada' }).click();
    await page.locator('#connection-list li').first().waitFor(WAIT);
    const link = page.locator('a.connect-link').first();
    const href = (await link.getAttribute('href')) ?? '';
    const url = new URL(href, mock.url);
    expect(url.pathname).toBe('/__mock/connect/start');
    expect(url.searchParams.get('userId')).toBe(DEMO.users.admin);
    expect(url.searchParams.get('subdomain')).toBe('demo');
  });

  it('has no serious or critical accessibility violation (axe-core), at 1280 and 360 px', async () => {
    const require = createRequire(import.meta.url);
    const axe = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
    const summaries: string[] = [];
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 900 });
      // Evaluated through the devtools protocol: the page's CSP forbids inline scripts.
      await page.evaluate(axe);
      const violations = await page.evaluate(async () => {
        const result = await (
          globalThis as unknown as {
            axe: { run(): Promise<{ violations: { id: string; impact: string | null }[] }> };
          }
        ).axe.run();
        return result.violations.map((violation) => ({
          id: violation.id,
          impact: violation.impact,
        }));
      });
      summaries.push(
        `${width}px: ${violations.map((v) => `${v.id} (${v.impact})`).join(', ') || 'none'}`,
      );
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual(
        [],
      );
      // Readable at this width: the page itself does not scroll sideways.
      const overflow = await page.evaluate(() => {
        const root = (
          globalThis as unknown as {
            document: { documentElement: { scrollWidth: number; clientWidth: number } };
          }
        ).document.documentElement;
        return root.scrollWidth - root.clientWidth;
      });
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(ARTIFACTS, `dashboard-${width}.png`), fullPage: true });
    }
    console.log(`axe-core violations: ${summaries.join('; ')}`);
  });
});
