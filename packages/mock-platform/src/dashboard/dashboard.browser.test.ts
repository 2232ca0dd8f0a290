import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
// mock on a manual clock, a verification endpoint that answers 200 to the task's key (400 to any
// other), an address nobody listens on, and a webhook receiver that always answers 500 so
// deliveries fail and retry. The tests run in order: each builds on the claims of the one before.

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '../../artifacts');
const WAIT = { timeout: 10_000 };
const AXE_VERSION: string = createRequire(import.meta.url)('axe-core/package.json').version;

let mock: MockServer;
let endpoint: Server;
let receiver: Server;
let context: BrowserContext;
let page: Page;
let profile: string;
let deadUrl: string;

/** Runs a shell line as a user pasting it would, with the environment given. */
function runInShell(line: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'sh',
      ['-c', line],
      { env: { ...process.env, ...env }, timeout: 10_000 },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
  });
}

/** Whether a locator's box lies inside the viewport, so the user sees it without scrolling. */
async function inViewport(locator: ReturnType<Page['locator']>): Promise<boolean> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) return false;
  return (
    box.x >= 0 &&
    box.y >= 0 &&
    box.x + box.width <= viewport.width &&
    box.y + box.height <= viewport.height
  );
}

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
    const ok = request.headers['x-api-key'] === 'dash-key';
    response.writeHead(ok ? 200 : 400, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ message: ok ? 'Verified by the dashboard test' : 'Wrong key.' }));
  });
  receiver = createServer((request, response) => {
    request.resume();
    response.writeHead(500, { 'content-type': 'text/plain' }).end('Handler failed.');
  });
  const endpointUrl = await listen(endpoint);
  const receiverUrl = await listen(receiver);
  const closed = createServer();
  deadUrl = await listen(closed);
  await new Promise((resolve) => closed.close(resolve));
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
  await api('POST', '/public/communities/demo/quests', {
    categoryId: DEMO.modules.community,
    name: 'Nobody home quest',
    published: true,
    recurrence: 'daily',
    conditionOperator: 'AND',
    tasks: [{ type: 'api', settings: { endpoint: `${deadUrl}/verify` } }],
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
  await page.getByText('Live: new claims appear here').waitFor(WAIT);
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

describe('the dashboard in Chromium', { timeout: 120_000 }, () => {
  it('shows the named demo members first, marked demo, and an empty journal that says what to do', async () => {
    const first = page.locator('#member-results li').first();
    await first.getByText('ada', { exact: true }).waitFor(WAIT);
    expect(await first.locator('.badge').textContent()).toBe('demo');
    expect(await page.locator('#claims').textContent()).toContain('claim a quest below');
  });

  it('shows Claim buttons as disabled, and why, before a member is selected', async () => {
    const claim = page.getByRole('button', { name: 'Claim as selected member: Dashboard quest' });
    await claim.waitFor(WAIT);
    expect(await claim.isDisabled()).toBe(true);
    const look = await claim.evaluate((node) => {
      const style = (
        globalThis as unknown as { getComputedStyle(n: unknown): Record<string, string> }
      ).getComputedStyle(node);
      return { cursor: style.cursor, background: style.backgroundColor };
    });
    expect(look.cursor).toBe('not-allowed');
    expect(look.background).not.toBe('rgb(11, 79, 156)');
    const hint = await claim.getAttribute('aria-describedby');
    expect(await page.locator(`#${hint}`).textContent()).toMatch(/^Select a member/);
  });

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

  it('shows a failed Add member next to the form, in the viewport', async () => {
    await page.getByLabel('Name', { exact: true }).fill('zoe again');
    await page.getByLabel('Discord id').fill('123456789012345678');
    await page.getByRole('button', { name: 'Add member' }).click();
    const outcome = page.locator('#member-add #member-add-outcome.error');
    await outcome.getByText(/already another member/).waitFor(WAIT);
    expect(await inViewport(outcome)).toBe(true);
    expect(await outcome.getAttribute('aria-live')).toBe('polite');
    // It names the member who holds the id, not an id that was never created.
    expect(await outcome.textContent()).not.toMatch(/user [0-9a-f-]{36} has/);
    await page.getByLabel('Name', { exact: true }).fill('');
    await page.getByLabel('Discord id').fill('');
  });

  it('claims a quest as a member; the claim appears live, by name, with its three checks', async () => {
    await page.getByLabel(/Find a member/).fill('ada.lovelace');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: 'Select ada' }).click();
    await page.getByText(`Selected member: ada (${DEMO.users.admin})`).waitFor(WAIT);
    const quest = page.locator('#quest-list li', { hasText: 'Dashboard quest' });
    await quest.getByRole('button', { name: 'Claim as ada: Dashboard quest' }).click();
    const result = quest.locator('.action-result');
    await result.getByText(/Verified by the dashboard test/).waitFor(WAIT);
    const requestId = /Request id ([0-9a-f-]{36})/.exec((await result.textContent()) ?? '')?.[1];
    expect(requestId).toBeDefined();
    // No reload: the row came over the event stream.
    const row = page.locator(`#claims tr[data-request-id="${requestId}"]`);
    await row.waitFor(WAIT);
    expect(await row.getAttribute('data-outcome')).toBe('claimed');
    expect(await row.locator('td.member .name').textContent()).toBe('ada');
    expect(await row.textContent()).toContain('Dashboard quest');
    expect(await row.textContent()).toContain('HTTP 200');
    await expect.poll(() => row.locator('.checks .pass').count(), WAIT).toBe(3);
    // The full ids, one click away.
    await row.locator('td.member summary').click();
    await row.getByText(DEMO.users.admin).waitFor(WAIT);
  });

  it('shows a claim refused before any call in the journal, with its reason', async () => {
    const quest = page.locator('#quest-list li', { hasText: 'Dashboard quest' });
    await quest.getByRole('button', { name: 'Claim as ada: Dashboard quest' }).click();
    await quest.getByText(/Refused before any call \(already-claimed\)/).waitFor(WAIT);
    const newest = page.locator('#claims tr').first();
    await expect.poll(() => newest.getAttribute('data-outcome'), WAIT).toBe('refused');
    expect(await newest.locator('td.outcome').textContent()).toContain('already-claimed');
    expect(await newest.locator('td.member .name').textContent()).toBe('ada');
    expect(await newest.locator('td.call').textContent()).toContain('no call');
  });

  it('shows a call without an answer as "no answer from <url>", not judged, never a pass', async () => {
    const quest = page.locator('#quest-list li', { hasText: 'Nobody home quest' });
    await quest.getByRole('button', { name: 'Claim as ada: Nobody home quest' }).click();
    await quest.getByText(/Endpoint fault/).waitFor(WAIT);
    const newest = page.locator('#claims tr').first();
    await expect.poll(() => newest.getAttribute('data-outcome'), WAIT).toBe('endpoint-fault');
    const text = (await newest.textContent()) ?? '';
    expect(text).toContain(`no answer from ${deadUrl}/verify`);
    expect(text).toContain('not judged');
    expect(await newest.locator('.pass').count()).toBe(0);
  });

  it('filters the journal by outcome, member and a search', async () => {
    await page.getByLabel('Outcome').selectOption('refused');
    await expect.poll(() => page.locator('#claims tr').count(), WAIT).toBe(1);
    expect(await page.locator('#claims tr').first().getAttribute('data-outcome')).toBe('refused');
    await page.getByLabel('Outcome').selectOption('');
    await page.getByLabel('Member', { exact: true }).selectOption({ label: 'ada' });
    await expect.poll(() => page.locator('#claims tr').count(), WAIT).toBe(3);
    await page.getByLabel('Search', { exact: true }).fill('nobody home');
    await expect.poll(() => page.locator('#claims tr').count(), WAIT).toBe(1);
    expect(await page.locator('#journal-count').textContent()).toBe('1 of 3 claims shown');
    await page.getByLabel('Search', { exact: true }).fill('no such thing');
    await page.locator('#claims').getByText('No claim matches these filters').waitFor(WAIT);
    await page.getByLabel('Search', { exact: true }).fill('');
    await page.getByLabel('Member', { exact: true }).selectOption('');
    await expect.poll(() => page.locator('#claims tr').count(), WAIT).toBe(3);
  });

  it('gives a curl line that works pasted in a shell, and replays the call through the mock', async () => {
    const claimed = page.locator('#claims tr[data-outcome="claimed"]').first();
    await claimed.getByRole('button', { name: /^Details of the claim/ }).click();
    const detail = page.locator('#claim-detail');
    const curl = (await detail.locator('pre.curl').textContent()) ?? '';
    expect(curl).toContain('"x-api-key: $QUEST_API_KEY"');
    expect(curl).not.toContain('dash-key');
    // Pasted as is: the shell expands the key, the handler answers as it did to the claim.
    expect(await runInShell(curl, { QUEST_API_KEY: 'dash-key' })).toContain(
      'Verified by the dashboard test',
    );
    expect(await runInShell(curl, { QUEST_API_KEY: 'not-the-key' })).toContain('Wrong key.');
    // Replay: the new answer beside the recorded one, the result next to the button.
    await detail.getByRole('button', { name: 'Replay this call through the mock' }).click();
    await detail
      .locator('.action-result')
      .getByText(/^Replayed at .*HTTP 200, verified/)
      .waitFor(WAIT);
    expect(await detail.locator('pre.replay-answer').textContent()).toContain(
      'Verified by the dashboard test',
    );
    expect(await detail.locator('pre.recorded-answer').textContent()).toContain('HTTP 200');
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-detail-1280.png'), fullPage: true });
    await detail.getByRole('button', { name: 'Close' }).click();
  });

  it('opens a failed delivery, advances the clock and sees the retry', async () => {
    await page.getByRole('button', { name: 'Refresh' }).first().click();
    const failed = page.locator('#delivery-rows tr', { hasText: 'failed' }).first();
    await failed.waitFor(WAIT);
    await failed.getByRole('button', { name: /^Details/ }).click();
    await expect.poll(() => page.locator('#delivery-attempts li').count(), WAIT).toBe(1);
    await page.getByLabel('Advance by').selectOption({ label: '1 day' });
    await page.getByRole('button', { name: 'Advance' }).click();
    await page.getByText(/retries ran/).waitFor(WAIT);
    await expect.poll(() => page.locator('#delivery-attempts li').count(), WAIT).toBeGreaterThan(1);
    const attempts = (await page.locator('#delivery-attempts').textContent()) ?? '';
    expect(attempts).toContain('HTTP 500');
    // The receiver's answer, so a deduplicated replay would read "Already handled.".
    expect(attempts).toContain('answered Handler failed.');
  });

  it('replays a delivery as a new one', async () => {
    const before = await page.locator('#delivery-rows tr').count();
    await page
      .locator('#delivery-rows tr')
      .first()
      .getByRole('button', { name: /^Replay/ })
      .click();
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

  it('writes a member name that looks like HTML as text, in the journal too', async () => {
    const name = '<img src=x onerror="document.title=1">';
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.locator('#member-add-outcome').getByText('Added <img').waitFor(WAIT);
    const quest = page.locator('#quest-list li', { hasText: 'Dashboard quest' });
    await quest.getByRole('button', { name: `Claim as ${name}: Dashboard quest` }).click();
    await quest.getByText(/Verified by the dashboard test/).waitFor(WAIT);
    const newest = page.locator('#claims tr').first();
    await expect.poll(() => newest.locator('td.member .name').textContent(), WAIT).toBe(name);
    expect(await page.locator('#claims img, #quest-list img, #member-results img').count()).toBe(0);
  });

  it('has no serious or critical accessibility violation (axe-core) at 1280, 390 and 360 px; narrow rows are cards', async () => {
    const require = createRequire(import.meta.url);
    const axe = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
    // The detail of a claim open too, so its replay controls are checked.
    await page
      .locator('#claims tr[data-outcome="claimed"]')
      .first()
      .getByRole('button', { name: /^Details of the claim/ })
      .click();
    const summaries: string[] = [];
    for (const width of [1280, 390, 360]) {
      await page.setViewportSize({ width, height: 900 });
      // Evaluated through the devtools protocol: the page's CSP forbids inline scripts.
      await page.evaluate(axe);
      const violations = await page.evaluate(async () => {
        const result = await (
          globalThis as unknown as {
            axe: {
              run(): Promise<{
                violations: { id: string; impact: string | null; nodes: unknown[] }[];
              }>;
            };
          }
        ).axe.run();
        return result.violations.map((violation) => ({
          id: violation.id,
          impact: violation.impact,
          nodes: violation.nodes.length,
        }));
      });
      summaries.push(
        `${width} px: ${violations.map((v) => `${v.id} (${v.impact}, ${v.nodes} nodes)`).join(', ') || 'no violation'}`,
      );
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual(
        [],
      );
      // Readable at this width: the page itself does not scroll sideways.
      const widths = await page.evaluate(() => {
        const view = globalThis as unknown as {
          innerWidth: number;
          document: { documentElement: { scrollWidth: number } };
        };
        return { scroll: view.document.documentElement.scrollWidth, viewport: view.innerWidth };
      });
      expect(widths.scroll).toBeLessThanOrEqual(widths.viewport);
      if (width < 640) {
        // A card: the newest claim's outcome, then its message, then its member, all in view.
        const newest = page.locator('#claims tr').first();
        const [outcome, message, member] = await Promise.all(
          ['td.outcome', 'td.message', 'td.member'].map((cell) =>
            newest.locator(cell).boundingBox(),
          ),
        );
        expect(outcome && outcome.x >= 0 && outcome.x + outcome.width <= width).toBe(true);
        expect(outcome!.y).toBeLessThan(message!.y);
        expect(message!.y).toBeLessThan(member!.y);
        await newest.scrollIntoViewIfNeeded();
        expect(await inViewport(newest.locator('td.outcome'))).toBe(true);
      }
      if (width !== 360) {
        await page.screenshot({ path: join(ARTIFACTS, `dashboard-${width}.png`), fullPage: true });
        // The journal alone, readable at a glance in the artifact.
        await page
          .locator('#journal')
          .screenshot({ path: join(ARTIFACTS, `dashboard-journal-${width}.png`) });
      }
    }
    const summary = `axe-core ${AXE_VERSION}, serious or critical: none; all: ${summaries.join('; ')}`;
    writeFileSync(join(ARTIFACTS, 'axe-summary.txt'), `${summary}\n`);
    console.log(summary);
  });
});
