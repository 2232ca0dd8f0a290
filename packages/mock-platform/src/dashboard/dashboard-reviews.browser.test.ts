import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../clock.js';
import { createMockPlatform } from '../platform.js';
import { DEMO } from '../seed/demo-ids.js';
import { type MockServer, startMockServer } from '../server.js';

// The dashboard's review queue and leaderboards in Debian's Chromium (playwright-core, no browser
// download), against the demo seed on a manual clock inside the running sprint: review jay's
// pending claim with a star and bonus xp, and see it leave the queue, its event, and jay on the
// sprint's leaderboard. The tests run in order.

const CHROMIUM = '/usr/bin/chromium';
const WAIT = { timeout: 10_000 };

let mock: MockServer;
let context: BrowserContext;
let page: Page;
let profile: string;
/** jay's xp on the running sprint's leaderboard before the review. */
let jaySprintXp = 0;

beforeAll(async () => {
  mock = await startMockServer(
    createMockPlatform({
      clock: createManualClock('2025-06-01T12:00:00.000Z'),
      rateLimit: false,
      endpointChecks: false,
    }),
    { port: 0 },
  );
  profile = mkdtempSync(join(tmpdir(), 'questkit-dashboard-reviews-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(10_000);
  page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${mock.url}/__mock/dashboard`);
  await page.getByText('Live: new claims appear here').waitFor(WAIT);
}, 60_000);

afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await mock?.close();
});

const queueRow = () => page.locator(`#review-rows tr[data-review-id="${DEMO.reviews.pending}"]`);

describe('the review queue and the leaderboards in Chromium', { timeout: 120_000 }, () => {
  it('lists the pending claim, by member and quest, with what was submitted', async () => {
    await queueRow().waitFor(WAIT);
    expect(await page.locator('#review-rows tr').count()).toBe(1);
    const text = (await queueRow().textContent()) ?? '';
    expect(text).toContain('pending');
    expect(text).toContain('jay');
    expect(text).toContain('Visit our partner');
    expect(text).toContain('partnership in-review: https://sandbox.example/visits/');
    expect(await page.locator('#review-count').textContent()).toBe('1 review shown, oldest first');
  });

  it('shows the running sprint’s leaderboard before the review', async () => {
    await page.getByLabel('Which leaderboard').selectOption({
      label: 'Sprint Founders season (running)',
    });
    await page.locator('#leaderboard-rows tr').first().waitFor(WAIT);
    await expect
      .poll(() => page.locator('#leaderboard-count').textContent(), WAIT)
      .toMatch(/ranked/);
    const jay = page.locator(`#leaderboard-rows tr[data-user-id="${DEMO.users.walletOnly}"]`);
    jaySprintXp = (await jay.count()) === 0 ? 0 : Number(await jay.locator('td.xp').textContent());
  });

  it('reviews the claim as a success with a star and bonus xp: it leaves the queue', async () => {
    await queueRow()
      .getByRole('button', { name: 'Review the claim of Visit our partner by jay' })
      .click();
    const form = page.locator('#review-form');
    await form.waitFor({ state: 'visible', ...WAIT });
    // The bonus goes only with a star: the field is off until the star is chosen.
    expect(await page.getByLabel(/^Bonus xp/).isDisabled()).toBe(true);
    await page.getByLabel('Success with a star').check();
    expect(await page.getByLabel(/^Bonus xp/).isDisabled()).toBe(false);
    await page.getByLabel(/^Bonus xp/).fill('25');
    await page.getByLabel('Comment to the member').fill('A fine visit');
    await page.getByRole('button', { name: 'Send the review' }).click();
    await page
      .locator('#review-outcome')
      .getByText(
        'Reviewed the claim of Visit our partner by jay: success with a star, +25 bonus xp.',
      )
      .waitFor(WAIT);
    expect(await form.isHidden()).toBe(true);
    await page.locator('#review-rows').getByText('No claim waits for review').waitFor(WAIT);
  });

  it('finds it under Success with its event, and jay on the sprint’s leaderboard', async () => {
    await page.getByLabel('Show reviews').selectOption('success');
    await queueRow().waitFor(WAIT);
    const text = (await queueRow().textContent()) ?? '';
    expect(text).toContain('success with a star');
    expect(text).toContain(
      'success: A fine visit (+25 bonus xp), by questkit mock (control route)',
    );
    const jay = page.locator(`#leaderboard-rows tr[data-user-id="${DEMO.users.walletOnly}"]`);
    await jay.waitFor(WAIT);
    await expect
      .poll(() => jay.locator('td.xp').textContent(), WAIT)
      .toBe(String(jaySprintXp + 125));
    // The public API agrees: the review's event.
    const headers = { 'x-api-key': DEMO.apiKeys.readWrite };
    const base = `${mock.url}/public/communities/demo`;
    const answer = await fetch(`${base}/reviews/${DEMO.reviews.pending}/events`, { headers });
    const events = (await answer.json()) as { items: unknown[] };
    expect(events.items).toEqual([
      expect.objectContaining({ type: 'success', data: { message: 'A fine visit', bonusXP: 25 } }),
    ]);
  });

  it('shows the platform’s refusal next to the form: success to fail needs pending first', async () => {
    await queueRow()
      .getByRole('button', { name: /^Review the claim/ })
      .click();
    await page.getByLabel('Fail with a flag').check();
    await page.getByRole('button', { name: 'Send the review' }).click();
    const outcome = page.locator('#review-outcome.error');
    await outcome.getByText(/set it to pending before fail/).waitFor(WAIT);
    expect(await outcome.getAttribute('aria-live')).toBe('polite');
    await page.getByRole('button', { name: 'Cancel' }).click();
  });

  it('has no serious or critical accessibility violation (axe-core) at 1280 and 390 px, the form open', async () => {
    const require = createRequire(import.meta.url);
    const axe = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
    await queueRow()
      .getByRole('button', { name: /^Review the claim/ })
      .click();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.evaluate(axe);
      const violations = await page.evaluate(async () => {
        const result = await (
          globalThis as unknown as {
            axe: {
              run(context: unknown): Promise<{
                violations: { id: string; impact: string | null }[];
              }>;
            };
          }
        ).axe.run({ include: [['#reviews'], ['#leaderboard']] });
        return result.violations.map((violation) => `${violation.id} (${violation.impact})`);
      });
      expect(
        violations.filter((v) => v.endsWith('(serious)') || v.endsWith('(critical)')),
        `${width} px`,
      ).toEqual([]);
      const widths = await page.evaluate(() => {
        const view = globalThis as unknown as {
          innerWidth: number;
          document: { documentElement: { scrollWidth: number } };
        };
        return { scroll: view.document.documentElement.scrollWidth, viewport: view.innerWidth };
      });
      expect(widths.scroll).toBeLessThanOrEqual(widths.viewport);
    }
  });
});
